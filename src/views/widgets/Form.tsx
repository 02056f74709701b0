import { useId, useState } from "react"
import { COUNTRIES, type Country, maxNationalDigits, type PhoneField, phoneField } from "../../domain/phone.ts"
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
  const hintId = `${id}-hint`
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-600">{label}</label>
      {/* The field's description is its error, or else its hint: read out with the field. */}
      {children({ id, "aria-invalid": error !== undefined, "aria-describedby": error ? errorId : hint ? hintId : undefined })}
      {error ? <p id={errorId} className="m-0 text-xs text-bad">{error}</p> : hint ? <p id={hintId} className="m-0 text-xs text-muted">{hint}</p> : null}
    </div>
  )
}

export const TextInput = (props: React.InputHTMLAttributes<HTMLInputElement>) => (
  <input {...props} className={`field ${props["aria-invalid"] ? "border-bad" : ""} ${props.className ?? ""}`} />
)

/** A password with a show/hide toggle (the one piece of a sign-in form kept by the view: it only changes how it is shown). */
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
 * most 15 digits with the country code. The value is the form's (a machine's
 * context); `onChange` gets the field as typed.
 */
export const PhoneInput = ({ id, value, onChange, invalid, describedBy, autoFocus }: {
  id: string
  value: PhoneField
  onChange: (value: PhoneField) => void
  invalid: boolean
  describedBy: string | undefined
  autoFocus?: boolean
}) => (
  <div className={`flex overflow-hidden rounded-md border bg-bg ${invalid ? "border-bad" : "border-line"} focus-within:border-brand`}>
    <select
      aria-label="Country code"
      value={value.country}
      onChange={(e) => onChange(phoneField(COUNTRIES.find((c) => c.code === e.target.value)?.code ?? value.country, value.national))}
      className="border-0 border-r border-line bg-raised px-2 text-sm text-fg focus:outline-none"
    >
      {COUNTRIES.map((c: Country) => (
        <option key={c.code} value={c.code}>{`${c.code} ${c.dial}`}</option>
      ))}
    </select>
    <input
      id={id}
      type="tel"
      inputMode="numeric"
      autoComplete="tel-national"
      autoFocus={autoFocus}
      placeholder={value.country === "IN" ? "98765 43210" : "415 555 2671"}
      value={value.national}
      maxLength={maxNationalDigits(value.country)}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      onChange={(e) => onChange(phoneField(value.country, e.target.value))}
      className="min-w-0 flex-1 border-0 bg-transparent px-3 py-2 text-fg placeholder:text-muted focus:outline-none"
    />
  </div>
)

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
