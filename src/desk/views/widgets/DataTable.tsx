import { type ColumnDef, type RowData, tableFeatures, useTable } from "@tanstack/react-table"
import { useVirtualizer } from "@tanstack/react-virtual"
import { type ReactNode, useRef } from "react"

const features = tableFeatures({})

export type Columns<Row extends RowData> = Array<ColumnDef<typeof features, Row>>

/** Builds columns with the right types: `columns<Deposit>((c) => [...])`. */
export const columns = <Row extends RowData,>(list: Columns<Row>) => list

/** Rows past this many are rendered as they scroll into view. */
const VIRTUAL_FROM = 60
const ROW_HEIGHT = 36

/**
 * A headless table (@tanstack/react-table) of one page of rows, virtualised
 * when long (@tanstack/react-virtual). A row is chosen by a click or Enter;
 * `selected` marks the one shown beside it.
 */
export const DataTable = <Row extends RowData,>(props: {
  readonly caption: string
  readonly rows: ReadonlyArray<Row>
  readonly columns: Columns<Row>
  readonly rowId: (row: Row) => string
  readonly selected?: string | undefined
  readonly onChoose?: ((row: Row) => void) | undefined
  readonly empty?: ReactNode
}) => {
  const table = useTable({ features, columns: props.columns, data: props.rows as Array<Row>, getRowId: props.rowId })
  const rows = table.getRowModel().rows
  const scroller = useRef<HTMLDivElement>(null)
  const virtual = rows.length > VIRTUAL_FROM
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12, enabled: virtual })
  const items = virtual ? virtualizer.getVirtualItems() : rows.map((_, index) => ({ index, start: 0 }))
  const padTop = virtual ? (items[0]?.start ?? 0) : 0
  const padBottom = virtual ? virtualizer.getTotalSize() - (items.length > 0 ? items[items.length - 1]!.start + ROW_HEIGHT : 0) : 0
  const width = props.columns.length
  return (
    <div ref={scroller} className={`table-wrap${virtual ? " virtual" : ""}`}>
      <table className="data">
        <caption className="sr-only">{props.caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => <th key={header.id} scope="col">{header.isPlaceholder ? null : <table.FlexRender header={header} />}</th>)}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.length === 0 && <tr><td colSpan={width} className="muted">{props.empty ?? "Nothing here."}</td></tr>}
          {padTop > 0 && <tr aria-hidden="true"><td colSpan={width} style={{ height: padTop, padding: 0, border: 0 }} /></tr>}
          {items.map(({ index }) => {
            const row = rows[index]!
            const choose = props.onChoose
            return (
              <tr
                key={row.id}
                className={choose ? "clickable" : undefined}
                aria-selected={props.selected === row.id ? true : undefined}
                tabIndex={choose ? 0 : undefined}
                onClick={choose ? () => choose(row.original) : undefined}
                onKeyDown={choose ? (event) => event.key === "Enter" && choose(row.original) : undefined}
              >
                {row.getAllCells().map((cell) => <td key={cell.id}><table.FlexRender cell={cell} /></td>)}
              </tr>
            )
          })}
          {padBottom > 0 && <tr aria-hidden="true"><td colSpan={width} style={{ height: padBottom, padding: 0, border: 0 }} /></tr>}
        </tbody>
      </table>
    </div>
  )
}

/** Previous and next page of a list paged on the server, with where it is. */
export const Pager = (props: {
  readonly page: number
  /** Null when the server does not count the rows. */
  readonly total: number | null
  readonly size: number
  readonly hasNext: boolean
  readonly onPrevious: () => void
  readonly onNext: () => void
}) => (
  <nav className="pager" aria-label="Pages">
    <span className="muted">{props.total === null ? `Page ${props.page}` : props.total === 0 ? "None" : `Page ${props.page} of ${Math.max(1, Math.ceil(props.total / props.size))} · ${props.total} in all`}</span>
    <button type="button" className="btn btn-small" disabled={props.page <= 1} onClick={props.onPrevious}>Previous</button>
    <button type="button" className="btn btn-small" disabled={!props.hasNext} onClick={props.onNext}>Next</button>
  </nav>
)
