import { useId, useState } from "react"
import { COUNTRIES, type Country, DEFAULT_COUNTRY, MAX_PHONE_DIGITS } from "../../domain/phone.ts"
import { Icon } from "./Icon.tsx"

/** A labelled field with its error read out by screen readers. */
export const Field = ({ label, error, children, hint }: {
  label: string
  error?: string | undefined
  hint?: string
  children: (props: { id: string; "aria-invalid": boolean; "aria-describedby": string | undefined }) => React.ReactNode
}) => {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-600">{label}</label>
      {children({ id, "aria-invalid": error !== undefined, "aria-describedby": error ? errorId : undefined })}
      {error ? <p id={errorId} className="m-0 text-xs text-bad">{error}</p> : hint ? <p className="m-0 text-xs text-muted">{hint}</p> : null}
    </div>
  )
}

export const TextInput = (props: React.InputHTMLAttributes<HTMLInputElement>) => (
  <input {...props} className={`field ${props["aria-invalid"] ? "border-bad" : ""} ${props.className ?? ""}`} />
)

/** A password with a show/hide toggle. */
export const PasswordInput = (props: Omit<React.InputHTMLAttributes<HTMLInputElement>, "type">) => {
  const [visible, setVisible] = useState(false)
  return (
    <div className="relative">
      <TextInput {...props} type={visible ? "text" : "password"} className="pr-10" />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label={visible ? "Hide password" : "Show password"}
        aria-pressed={visible}
        className="absolute right-1.5 top-1/2 -translate-y-1/2 rounded p-1.5 text-muted hover:text-fg"
      >
        <Icon name={visible ? "eyeOff" : "eye"} size={16} />
      </button>
    </div>
  )
}

/**
 * A mobile number: India (+91, the default) or the US (+1), digits only, at
 * most 15 digits with the country code. `onChange` gets the full number
 * ("+919876543210", or the dial code alone when empty is typed).
 */
export const PhoneInput = ({ id, value, onChange, invalid, describedBy, autoFocus }: {
  id: string
  value: { country: Country; national: string }
  onChange: (value: { country: Country; national: string }) => void
  invalid: boolean
  describedBy: string | undefined
  autoFocus?: boolean
}) => {
  const maxNational = MAX_PHONE_DIGITS - (value.country.dial.length - 1)
  return (
    <div className={`flex overflow-hidden rounded-md border bg-bg ${invalid ? "border-bad" : "border-line"} focus-within:border-brand`}>
      <select
        aria-label="Country code"
        value={value.country.code}
        onChange={(e) => onChange({ country: COUNTRIES.find((c) => c.code === e.target.value) ?? DEFAULT_COUNTRY, national: value.national })}
        className="border-0 border-r border-line bg-raised px-2 text-sm text-fg focus:outline-none"
      >
        {COUNTRIES.map((c) => (
          <option key={c.code} value={c.code}>{`${c.code} ${c.dial}`}</option>
        ))}
      </select>
      <input
        id={id}
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        autoFocus={autoFocus}
        placeholder={value.country.code === "IN" ? "98765 43210" : "415 555 2671"}
        value={value.national}
        maxLength={maxNational}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(e) => onChange({ country: value.country, national: e.target.value.replace(/\D/g, "").slice(0, maxNational) })}
        className="min-w-0 flex-1 border-0 bg-transparent px-3 py-2 text-fg placeholder:text-muted focus:outline-none"
      />
    </div>
  )
}

export const emptyPhone = () => ({ country: DEFAULT_COUNTRY, national: "" })
export const fullNumber = (phone: { country: Country; national: string }) => (phone.national ? `${phone.country.dial}${phone.national}` : "")

/** The red alert for a server failure inside a modal (SPEC section 8). */
export const Alert = ({ message }: { message: string | undefined }) =>
  message ? (
    <div role="alert" className="flex items-start gap-2 rounded-md border border-bad/40 bg-bad/10 px-3 py-2 text-sm text-bad">
      <Icon name="info" size={16} className="mt-0.5 shrink-0" />
      <span>{message}</span>
    </div>
  ) : null

export const LinkButton = (props: React.ButtonHTMLAttributes<HTMLButtonElement>) => (
  <button type="button" {...props} className={`text-sm font-600 text-brand hover:underline ${props.className ?? ""}`} />
)
