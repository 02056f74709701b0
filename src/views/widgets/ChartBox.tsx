/** The box a market's price chart takes, loading or not (its chunk, its history), so nothing below it moves when it comes. */
export const ChartBox = ({ children, busy }: { children?: React.ReactNode; busy?: boolean }) => (
  <div className="border-t border-line px-3 py-2" style={{ minHeight: 200 }} aria-busy={busy}>{children}</div>
)
