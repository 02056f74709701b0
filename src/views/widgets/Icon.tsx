/** A small stroke icon set (24x24), so no icon font or extra request is needed. */
const PATHS = {
  home: "M3 11 12 4l9 7M5 10v10h5v-6h4v6h5V10",
  sports: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm0 0v18M3.6 8.5h16.8M3.6 15.5h16.8",
  inplay: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18ZM10 8.5v7l6-3.5-6-3.5Z",
  casino: "M5 4h10a2 2 0 0 1 2 2v14l-4-2-4 2-4-2V6a2 2 0 0 1 2-2Zm14 3v12M8 9h6M8 13h4",
  slots: "M4 6h16v12H4zM9 6v12M15 6v12M6 10l1.5 4M11.5 10l1 4M17 10l1 4",
  cricket: "M5 19l9-9 3 3-9 9zM14 10l5-5M17 4l3 3M18 17a2 2 0 1 0 .01 0",
  football: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm0 5 3.5 2.5-1.3 4h-4.4l-1.3-4L12 8Zm0-5v5m9 3-5.5-.5M18 19l-3.8-4.5M6 19l3.8-4.5M3 11l5.5-.5",
  tennis: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18ZM5.5 5.5c3.5 3.5 3.5 9.5 0 13M18.5 5.5c-3.5 3.5-3.5 9.5 0 13",
  kabaddi: "M8 4a2 2 0 1 0 .01 0M16 4a2 2 0 1 0 .01 0M8 8v5l-3 7M8 13l3 7M16 8v5l3 7M16 13l-3 7M8 10l8 0",
  basketball: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18ZM3 12h18M12 3v18M5.6 5.6c3 3 3 9.8 0 12.8M18.4 5.6c-3 3-3 9.8 0 12.8",
  horse: "M5 20l2-6 4-2 2-5 4-3 2 2-2 2 2 4-2 1-2-2-2 4v5M9 12l-3-2",
  greyhound: "M3 14h5l4-4h4l3-3 2 2-2 2v3l-3 2H9l-3 3M12 10l-2-3",
  search: "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14Zm9 16-4-4",
  user: "M12 4a4 4 0 1 0 0 8 4 4 0 0 0 0-8ZM4 20a8 8 0 0 1 16 0",
  chevronDown: "m6 9 6 6 6-6",
  chevronRight: "m9 6 6 6-6 6",
  chevronLeft: "m15 6-6 6 6 6",
  close: "M6 6l12 12M18 6 6 18",
  sun: "M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8ZM12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4",
  moon: "M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5Z",
  phone: "M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2Z",
  chat: "M4 5h16v11H9l-5 4V5Z",
  whatsapp: "M12 3a9 9 0 0 0-7.8 13.5L3 21l4.6-1.2A9 9 0 1 0 12 3Zm-3 5c.5 3 2.5 5.5 6 7l1.5-1.5-2-1-1 1c-1.2-.6-2.2-1.6-2.8-2.8l1-1-1-2L9 8Z",
  wallet: "M4 7h15a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7Zm0 0 12-3v3M16 13h.01",
  deposit: "M12 4v11m0 0-4-4m4 4 4-4M5 20h14",
  withdraw: "M12 15V4m0 0-4 4m4-4 4 4M5 20h14",
  gift: "M4 10h16v10H4zM3 7h18v3H3zM12 7v13M12 7c-2-4-6-3-5 0M12 7c2-4 6-3 5 0",
  copy: "M9 9h10v11H9zM5 15H4V4h11v1",
  eye: "M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12Zm10-3a3 3 0 1 0 0 6 3 3 0 0 0 0-6Z",
  eyeOff: "M3 3l18 18M10.6 6.1A10 10 0 0 1 12 6c6 0 10 6 10 6a17 17 0 0 1-3.2 3.8M6.4 7.4C3.8 9.2 2 12 2 12s4 7 10 7a9.7 9.7 0 0 0 4.4-1M9.9 9.9a3 3 0 0 0 4.2 4.2",
  logout: "M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10",
  bets: "M6 3h12v18l-3-2-3 2-3-2-3 2V3Zm3 5h6M9 12h6",
  statement: "M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7",
  chart: "M4 20V10M10 20V4M16 20v-7M22 20H2",
  key: "M14 7a4 4 0 1 0 0 .01M10.5 10.5 3 18v3h3v-2h2v-2h2l2.5-2.5",
  live: "M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6ZM6.3 6.3a8 8 0 0 0 0 11.4M17.7 6.3a8 8 0 0 1 0 11.4",
  play: "M7 4v16l13-8L7 4Z",
  tv: "M3 6h18v12H3zM8 21h8M12 18v3",
  score: "M4 5h16v14H4zM12 5v14M7 10v4M16 10v4",
  info: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm0 8v5m0-8h.01",
  upload: "M12 16V4m0 0-4 4m4-4 4 4M4 16v4h16v-4",
  bank: "M3 9l9-5 9 5M5 9v9M10 9v9M14 9v9M19 9v9M3 20h18",
  trophy: "M7 4h10v5a5 5 0 0 1-10 0V4ZM7 6H4a3 3 0 0 0 3 4M17 6h3a3 3 0 0 1-3 4M9 20h6M12 14v6",
  menu: "M4 6h16M4 12h16M4 18h16",
  refresh: "M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7",
  offline: "M3 3l18 18M8.5 16.5a5 5 0 0 1 7 0M5 13a10 10 0 0 1 5-2.7M19 13a10 10 0 0 0-2-1.6M2 9.5a15 15 0 0 1 4.5-2.8M22 9.5A15 15 0 0 0 10.5 5.1M12 20h.01",
  bell: "M6 16v-5a6 6 0 1 1 12 0v5l2 2H4l2-2ZM10 21h4",
  install: "M8 3h8a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1Zm4 4v7m0 0-3-3m3 3 3-3",
  share: "M12 3v12M12 3 8 7M12 3l4 4M6 11H5v10h14V11h-1"
} as const

export type IconName = keyof typeof PATHS

export const Icon = ({ name, size = 18, className, title }: {
  name: IconName
  size?: number
  className?: string
  /** Only for icons that carry meaning on their own; decorative icons stay hidden from screen readers. */
  title?: string
}) => (
  <svg
    width={size}
    height={size}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.8}
    strokeLinecap="round"
    strokeLinejoin="round"
    className={className}
    aria-hidden={title ? undefined : true}
    role={title ? "img" : undefined}
  >
    {title ? <title>{title}</title> : null}
    <path d={PATHS[name]} />
  </svg>
)

/** The icon of a sport by slug, for the sidebar and the chip strip. */
export const sportIcon = (slug: string): IconName => {
  switch (slug) {
    case "cricket":
      return "cricket"
    case "football":
      return "football"
    case "tennis":
      return "tennis"
    case "kabaddi":
      return "kabaddi"
    case "basketball":
      return "basketball"
    case "horse-racing":
      return "horse"
    case "greyhound-racing":
      return "greyhound"
    default:
      return "sports"
  }
}
