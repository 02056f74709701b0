/**
 * Phone numbers: India (+91, the default) and the US (+1) only, at most 15
 * digits, kept in E.164 form (+919876543210).
 */
export interface Country {
  readonly code: "IN" | "US"
  readonly name: string
  readonly dial: "+91" | "+1"
  /** The national number, without the country code. */
  readonly national: RegExp
}

export const COUNTRIES: ReadonlyArray<Country> = [
  { code: "IN", name: "India", dial: "+91", national: /^[6-9]\d{9}$/ },
  { code: "US", name: "United States", dial: "+1", national: /^[2-9]\d{2}[2-9]\d{6}$/ }
]

export const DEFAULT_COUNTRY = COUNTRIES[0]!
export const MAX_PHONE_DIGITS = 15

export const INVALID_PHONE = "Enter a valid mobile number for India (+91) or the US (+1)"

/** A +1 number outside the US's own area codes (the server checks it: src/domain/usNumbers.ts). */
export const NOT_US_NUMBER = "Only US numbers can be used with +1 (not Canada, the Caribbean, premium-rate or toll-free numbers)"

const country = (dial: string) => COUNTRIES.find((c) => c.dial === dial)

/** E.164 form of a number typed with or without its country code, or undefined if it is not a valid Indian or US number. */
export const normalizePhone = (input: string, defaultDial: Country["dial"] = DEFAULT_COUNTRY.dial): string | undefined => {
  const trimmed = input.trim()
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return undefined
  const digits = trimmed.replace(/\D/g, "")
  if (digits.length === 0 || digits.length > MAX_PHONE_DIGITS) return undefined
  const candidates: Array<[Country | undefined, string]> = trimmed.startsWith("+")
    ? [[country("+91"), digits.startsWith("91") ? digits.slice(2) : ""], [country("+1"), digits.startsWith("1") ? digits.slice(1) : ""]]
    : [
      [country(defaultDial), defaultDial === "+91" && digits.length === 11 && digits.startsWith("0") ? digits.slice(1) : digits],
      [country("+91"), digits.length === 12 && digits.startsWith("91") ? digits.slice(2) : ""],
      [country("+1"), digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : ""]
    ]
  for (const [c, national] of candidates) if (c && c.national.test(national)) return `${c.dial}${national}`
  return undefined
}

/** "+91 98765 43210" / "+1 415 555 2671", for messages. */
export const formatPhone = (e164: string) =>
  e164.startsWith("+91")
    ? `+91 ${e164.slice(3, 8)} ${e164.slice(8)}`
    : e164.startsWith("+1")
    ? `+1 ${e164.slice(2, 5)} ${e164.slice(5, 8)} ${e164.slice(8)}`
    : e164

/** A phone field as a form keeps it: the country chosen and the national digits typed. */
export interface PhoneField {
  readonly country: Country["code"]
  readonly national: string
}

export const BLANK_PHONE: PhoneField = { country: DEFAULT_COUNTRY.code, national: "" }

export const countryOf = (code: Country["code"]): Country => COUNTRIES.find((c) => c.code === code) ?? DEFAULT_COUNTRY

/** How many national digits a country's numbers may have within the 15-digit limit. */
export const maxNationalDigits = (code: Country["code"]) => MAX_PHONE_DIGITS - (countryOf(code).dial.length - 1)

/** The field as typed: digits only, no more than the country allows. */
export const phoneField = (country: Country["code"], national: string): PhoneField => ({
  country,
  national: national.replace(/\D/g, "").slice(0, maxNationalDigits(country))
})

/** The full number of a field ("+919876543210"), or "" while no digit is typed. */
export const phoneNumber = (field: PhoneField) => (field.national ? `${countryOf(field.country).dial}${field.national}` : "")
