/** Search ignores spaces and case: "IndiaVs Aus" finds "india vs aus". */
export const normalizeSearch = (text: string) => text.replace(/\s+/g, "").toLowerCase()

export const matchesSearch = (query: string, ...fields: ReadonlyArray<string>) => {
  const needle = normalizeSearch(query)
  return needle === "" || fields.some((field) => normalizeSearch(field).includes(needle))
}
