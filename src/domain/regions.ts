/**
 * India's states and union territories, by their ISO 3166-2:IN code without
 * the "IN-" prefix (the codes as ISO has published them since November 2023:
 * Chhattisgarh CG, Odisha OD, Telangana TS, Uttarakhand UK). Players declare
 * one at sign-up; operators block the ones they may not serve.
 */
export const REGIONS = [
  { code: "AN", name: "Andaman and Nicobar Islands", kind: "territory" },
  { code: "AP", name: "Andhra Pradesh", kind: "state" },
  { code: "AR", name: "Arunachal Pradesh", kind: "state" },
  { code: "AS", name: "Assam", kind: "state" },
  { code: "BR", name: "Bihar", kind: "state" },
  { code: "CH", name: "Chandigarh", kind: "territory" },
  { code: "CG", name: "Chhattisgarh", kind: "state" },
  { code: "DH", name: "Dadra and Nagar Haveli and Daman and Diu", kind: "territory" },
  { code: "DL", name: "Delhi", kind: "territory" },
  { code: "GA", name: "Goa", kind: "state" },
  { code: "GJ", name: "Gujarat", kind: "state" },
  { code: "HR", name: "Haryana", kind: "state" },
  { code: "HP", name: "Himachal Pradesh", kind: "state" },
  { code: "JK", name: "Jammu and Kashmir", kind: "territory" },
  { code: "JH", name: "Jharkhand", kind: "state" },
  { code: "KA", name: "Karnataka", kind: "state" },
  { code: "KL", name: "Kerala", kind: "state" },
  { code: "LA", name: "Ladakh", kind: "territory" },
  { code: "LD", name: "Lakshadweep", kind: "territory" },
  { code: "MP", name: "Madhya Pradesh", kind: "state" },
  { code: "MH", name: "Maharashtra", kind: "state" },
  { code: "MN", name: "Manipur", kind: "state" },
  { code: "ML", name: "Meghalaya", kind: "state" },
  { code: "MZ", name: "Mizoram", kind: "state" },
  { code: "NL", name: "Nagaland", kind: "state" },
  { code: "OD", name: "Odisha", kind: "state" },
  { code: "PY", name: "Puducherry", kind: "territory" },
  { code: "PB", name: "Punjab", kind: "state" },
  { code: "RJ", name: "Rajasthan", kind: "state" },
  { code: "SK", name: "Sikkim", kind: "state" },
  { code: "TN", name: "Tamil Nadu", kind: "state" },
  { code: "TS", name: "Telangana", kind: "state" },
  { code: "TR", name: "Tripura", kind: "state" },
  { code: "UP", name: "Uttar Pradesh", kind: "state" },
  { code: "UK", name: "Uttarakhand", kind: "state" },
  { code: "WB", name: "West Bengal", kind: "state" }
] as const

export type Region = typeof REGIONS[number]["code"]

export const REGION_CODES = REGIONS.map((region) => region.code) as unknown as readonly [Region, ...Array<Region>]

const byCode = new Map<string, typeof REGIONS[number]>(REGIONS.map((region) => [region.code, region]))

export const isRegion = (code: string): code is Region => byCode.has(code)

export const regionName = (code: string) => byCode.get(code)?.name ?? code

/** Codes ISO used before its 2023 update; proxies and older databases may still send them. */
const FORMER_CODES: Record<string, Region> = { CT: "CG", OR: "OD", TG: "TS", UT: "UK", DN: "DH", DD: "DH" }

/**
 * A region as a geolocating proxy names it ("IN-MH", "MH", "in-mh", or a
 * former code such as "IN-OR"), or undefined when it is not a region of India.
 */
export const regionFromHeader = (value: string | undefined): Region | undefined => {
  if (!value) return undefined
  const text = value.trim().toUpperCase()
  const match = /^(?:IN-)?([A-Z]{2})$/.exec(text)
  if (!match) return undefined
  const code = FORMER_CODES[match[1]!] ?? match[1]!
  return isRegion(code) ? code : undefined
}
