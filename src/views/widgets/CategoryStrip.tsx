/**
 * All Category plus the lobby's categories, as a row of toggle buttons that
 * scrolls sideways on small screens.
 */
export const CategoryStrip = ({ categories, selected, counts, onSelect }: {
  categories: ReadonlyArray<string>
  selected: string
  counts?: Readonly<Record<string, number>>
  onSelect: (category: string) => void
}) => (
  <div role="group" aria-label="Game categories" className="flex gap-2 overflow-x-auto pb-1 [scrollbar-width:thin]">
    {categories.map((category) => {
      const active = category === selected
      return (
        <button
          key={category}
          type="button"
          aria-pressed={active}
          onClick={() => onSelect(category)}
          className={`chip shrink-0 cursor-pointer whitespace-nowrap py-1.5 font-600 ${active ? "border-brand bg-brand text-brand-fg" : "bg-surface text-fg hover:bg-raised"}`}
        >
          {category}
          {counts?.[category] !== undefined ? <span className={active ? "text-brand-fg/80" : "text-muted"}>{counts[category]}</span> : null}
        </button>
      )
    })}
  </div>
)
