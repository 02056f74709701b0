import { useSelector } from "@xstate/react"
import { createContext, useContext, useRef } from "react"
import type { ActorRefFrom, SnapshotFrom } from "xstate"
import { formatPhone } from "../../domain/phone.ts"
import { REGIONS } from "../../domain/regions.ts"
import { PASSWORD_HINT } from "../../domain/validation.ts"
import { type AuthForms, type AuthScreen, authScreen, type FieldChange, OTP_LENGTH } from "../../machines/authModal.machine.ts"
import type { FlowRef } from "../../machines/flows.ts"
import type { otpCountdownMachine } from "../../machines/otpCountdown.machine.ts"
import { AppActor } from "../app-actor.ts"
import { Dialog } from "../widgets/Dialog.tsx"
import { Alert, Field, LinkButton, PasswordInput, PhoneInput, TextInput } from "../widgets/Form.tsx"
import { Icon } from "../widgets/Icon.tsx"

const TITLES: Record<AuthScreen, string> = {
  Login: "Sign in",
  Register: "Create your account",
  Otp: "Verify your number",
  Forgot: "Forgot password",
  Reset: "Reset password",
  Done: "Password reset",
  ChangePassword: "Change password"
}

type AuthModalRef = FlowRef<"authModal">

/** The open chain, for the forms below. */
const Modal = createContext<AuthModalRef | undefined>(undefined)

const useAuthModalRef = (): AuthModalRef => {
  const modal = useContext(Modal)
  if (!modal) throw new Error("AuthModals: rendered without its flow")
  return modal
}

const useAuthModal = <T,>(selector: (snapshot: SnapshotFrom<AuthModalRef>) => T) => useSelector(useAuthModalRef(), selector)

/**
 * The sign-in modal chain, driven by the authModal machine; loaded when it
 * first opens. Every field's value is the machine's (`field.change`); the
 * view only renders it.
 */
const AuthModals = ({ modal }: { modal: AuthModalRef }) => (
  <Modal value={modal}>
    <Chain />
  </Modal>
)

const Chain = () => {
  const auth = useAuthModalRef()
  const step = useAuthModal(authScreen)
  if (!step) return null
  return (
    // Sign-up is the longest form: two columns from 768 px, so it fits a laptop's screen without scrolling.
    <Dialog open title={TITLES[step]} onClose={() => auth.send({ type: "auth.close" })} testId="auth-modal" wide={step === "Register"}>
      {step === "Login" ? <LoginForm /> : null}
      {step === "Register" ? <RegisterForm /> : null}
      {step === "Otp" ? <OtpForm /> : null}
      {step === "Forgot" ? <ForgotForm /> : null}
      {step === "Reset" ? <ResetForm /> : null}
      {step === "Done" ? <ResetDone /> : null}
      {step === "ChangePassword" ? <ChangePasswordForm /> : null}
    </Dialog>
  )
}

export default AuthModals

/** A field of a form of the machine: its value, and a setter that sends `field.change`. */
const useField = <F extends keyof AuthForms, K extends keyof AuthForms[F]>(form: F, field: K) => {
  const auth = useAuthModalRef()
  const value = useAuthModal((s) => s.context.forms[form][field])
  // The generic pair (form, field) cannot be narrowed to one member of the FieldChange union; it is typed by AuthForms.
  const set = (next: AuthForms[F][K]) => auth.send({ type: "field.change", form, field, value: next } as FieldChange)
  return [value, set] as const
}

const useFormState = () => ({
  busy: useAuthModal((s) => s.hasTag("busy")),
  error: useAuthModal((s) => s.context.error),
  fieldErrors: useAuthModal((s) => s.context.fieldErrors)
})

/** A modal's form: no browser validation bubbles (the machine's messages show instead), submit sends to the machine. */
const ModalForm = ({ onSubmit, children }: { onSubmit: () => void; children: React.ReactNode }) => (
  <form
    noValidate
    className="flex flex-col gap-4"
    onSubmit={(e) => {
      e.preventDefault()
      onSubmit()
    }}
  >
    {children}
  </form>
)

const Submit = ({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) => (
  <button type="submit" disabled={busy} aria-busy={busy} className="btn-brand w-full py-2.5">
    {busy ? busyLabel : label}
  </button>
)

const LoginForm = () => {
  const auth = useAuthModalRef()
  const { busy, error, fieldErrors } = useFormState()
  const [by, setBy] = useField("login", "by")
  const [phone, setPhone] = useField("login", "phone")
  const [username, setUsername] = useField("login", "username")
  const [password, setPassword] = useField("login", "password")
  const [remember, setRemember] = useField("login", "remember")
  return (
    <ModalForm onSubmit={() => auth.send({ type: "login.submit" })}>
      <div role="tablist" aria-label="Sign in with" className="grid grid-cols-2 rounded-md border border-line p-0.5">
        {(["phone", "username"] as const).map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={by === tab}
            onClick={() => setBy(tab)}
            className={`rounded px-3 py-1.5 text-sm font-600 ${by === tab ? "bg-brand text-brand-fg" : "text-muted hover:text-fg"}`}
          >
            {tab === "phone" ? "Phone Number" : "Username"}
          </button>
        ))}
      </div>
      <Alert message={error} />
      {by === "phone" ? (
        <Field label="Mobile number" error={fieldErrors.mobileNo}>
          {(p) => <PhoneInput id={p.id} value={phone} onChange={setPhone} invalid={p["aria-invalid"]} describedBy={p["aria-describedby"]} autoFocus />}
        </Field>
      ) : (
        <Field label="Username" error={fieldErrors.username}>
          {(p) => <TextInput {...p} autoFocus autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />}
        </Field>
      )}
      <Field label="Password" error={fieldErrors.password}>
        {(p) => <PasswordInput {...p} autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      <div className="flex items-center justify-between">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} className="h-4 w-4 accent-[rgb(var(--brand))]" />
          Remember me
        </label>
        <LinkButton onClick={() => auth.send({ type: "auth.toForgot" })}>Forgot password?</LinkButton>
      </div>
      <Submit busy={busy} label="Login" busyLabel="Logging in..." />
      <p className="m-0 text-center text-sm text-muted">
        New to Khel? <LinkButton onClick={() => auth.send({ type: "auth.toRegister" })}>Sign up</LinkButton>
      </p>
    </ModalForm>
  )
}

const RegisterForm = () => {
  const auth = useAuthModalRef()
  const { busy, error, fieldErrors } = useFormState()
  const referralFromLink = useAuthModal((s) => s.context.referralCode)
  const whatsapp = AppActor.useSelector((s) => s.context.allSettings?.contacts.whatsapp)
  const blocked = AppActor.useSelector((s) => s.context.allSettings?.compliance.blockedRegions)
  const [name, setName] = useField("register", "name")
  const [phone, setPhone] = useField("register", "phone")
  const [password, setPassword] = useField("register", "password")
  const [confirmPassword, setConfirm] = useField("register", "confirmPassword")
  const [referralCode, setReferral] = useField("register", "referralCode")
  const [region, setRegion] = useField("register", "region")
  const [ageConfirmed, setAgeConfirmed] = useField("register", "ageConfirmed")
  return (
    <ModalForm onSubmit={() => auth.send({ type: "register.submit" })}>
      <Alert message={error} />
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Name" error={fieldErrors.name}>
          {(p) => <TextInput {...p} autoFocus autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Mobile number" error={fieldErrors.mobileNo} hint="We will send a 4-digit code to this number.">
          {(p) => <PhoneInput id={p.id} value={phone} onChange={setPhone} invalid={p["aria-invalid"]} describedBy={p["aria-describedby"]} />}
        </Field>
        <Field label="Password" error={fieldErrors.password} hint={PASSWORD_HINT}>
          {(p) => <PasswordInput {...p} autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <Field label="Confirm password" error={fieldErrors.confirmPassword}>
          {(p) => <PasswordInput {...p} autoComplete="new-password" value={confirmPassword} onChange={(e) => setConfirm(e.target.value)} />}
        </Field>
        {referralFromLink !== undefined ? (
          <Field label="Referral code (optional)" error={fieldErrors.referralCode}>
            {(p) => <TextInput {...p} value={referralCode} onChange={(e) => setReferral(e.target.value)} />}
          </Field>
        ) : null}
        <Field label="State you live in" error={fieldErrors.region}>
          {(p) => (
            <select {...p} className={`field ${p["aria-invalid"] ? "border-bad" : ""}`} value={region} onChange={(e) => setRegion(e.target.value)}>
              <option value="">Choose your state</option>
              {REGIONS.map((r) => (
                <option key={r.code} value={r.code} disabled={blocked?.includes(r.code)}>
                  {blocked?.includes(r.code) ? `${r.name} (not available)` : r.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="flex flex-col gap-1">
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            checked={ageConfirmed}
            onChange={(e) => setAgeConfirmed(e.target.checked)}
            aria-invalid={fieldErrors.ageConfirmed !== undefined}
            aria-describedby={fieldErrors.ageConfirmed ? "register-age-error" : undefined}
            className="mt-0.5 h-4 w-4 accent-[rgb(var(--brand))]"
          />
          <span>
            I am 18 or older and I accept the{" "}
            <a href="/terms-&-conditions" target="_blank" rel="noopener" className="underline">terms and conditions</a>
          </span>
        </label>
        {fieldErrors.ageConfirmed ? <p id="register-age-error" className="m-0 text-xs text-bad">{fieldErrors.ageConfirmed}</p> : null}
      </div>
      <Submit busy={busy} label="Create account" busyLabel="Creating account..." />
      {whatsapp ? (
        <a
          href={`${whatsapp}?text=${encodeURIComponent("Hi, I would like to create a Khel account.")}`}
          target="_blank"
          rel="noopener noreferrer"
          className="btn w-full border border-[#25d366] text-[#25d366] hover:bg-[#25d366]/10"
        >
          <Icon name="whatsapp" /> Create account on WhatsApp
        </a>
      ) : null}
      <p className="m-0 text-center text-sm text-muted">
        Already have an account? <LinkButton onClick={() => auth.send({ type: "auth.toLogin" })}>Login</LinkButton>
      </p>
    </ModalForm>
  )
}

/**
 * Four one-digit boxes: typing moves on, Backspace moves back, pasting a code
 * fills them all. The digits are the machine's; the boxes only move the focus.
 */
const OtpBoxes = ({ digits, onChange, invalid }: { digits: ReadonlyArray<string>; onChange: (digits: ReadonlyArray<string>) => void; invalid: boolean }) => {
  const refs = useRef<Array<HTMLInputElement | null>>([])
  const fill = (start: number, text: string) => {
    const incoming = text.replace(/\D/g, "").slice(0, OTP_LENGTH - start).split("")
    if (incoming.length === 0) return
    const next = [...digits]
    incoming.forEach((d, i) => (next[start + i] = d))
    onChange(next)
    refs.current[Math.min(start + incoming.length, OTP_LENGTH - 1)]?.focus()
  }
  return (
    <div className="flex justify-center gap-3" role="group" aria-label="One-time code">
      {digits.map((digit, i) => (
        <input
          key={i}
          ref={(el) => {
            refs.current[i] = el
          }}
          aria-label={`Digit ${i + 1} of ${OTP_LENGTH}`}
          aria-invalid={invalid && digit === ""}
          inputMode="numeric"
          autoComplete={i === 0 ? "one-time-code" : "off"}
          autoFocus={i === 0}
          maxLength={OTP_LENGTH}
          value={digit}
          onChange={(e) => {
            if (e.target.value === "") {
              const next = [...digits]
              next[i] = ""
              onChange(next)
            } else fill(i, e.target.value)
          }}
          onKeyDown={(e) => {
            if (e.key === "Backspace" && digit === "" && i > 0) refs.current[i - 1]?.focus()
          }}
          onPaste={(e) => {
            e.preventDefault()
            fill(0, e.clipboardData.getData("text"))
          }}
          className={`h-14 w-12 rounded-md border bg-bg text-center text-2xl font-700 text-fg focus:(outline-none border-brand) ${invalid && digit === "" ? "border-bad" : "border-line"}`}
        />
      ))}
    </div>
  )
}

const OtpForm = () => {
  const auth = useAuthModalRef()
  const { busy, fieldErrors } = useFormState()
  const mobileNo = useAuthModal((s) => s.context.mobileNo)
  const canResend = useAuthModal((s) => s.context.canResend)
  const resending = useAuthModal((s) => s.hasTag("resending"))
  const countdown = useAuthModal((s) => s.children.countdown)
  const [digits, setDigits] = useField("otp", "digits")
  return (
    <ModalForm onSubmit={() => auth.send({ type: "otp.submit" })}>
      <p className="m-0 text-sm text-muted">
        Enter the 4-digit code we sent to <strong className="text-fg">{mobileNo ? formatPhone(mobileNo) : "your number"}</strong>.
      </p>
      <OtpBoxes digits={digits} onChange={setDigits} invalid={fieldErrors.otp !== undefined} />
      {fieldErrors.otp ? <p role="alert" className="m-0 text-center text-xs text-bad">{fieldErrors.otp}</p> : null}
      <Submit busy={busy && !resending} label="Verify" busyLabel="Verifying..." />
      <div className="flex items-center justify-between text-sm">
        <LinkButton onClick={() => auth.send({ type: "otp.changePhone" })}>Change phone number</LinkButton>
        {countdown ? <ResendButton countdown={countdown} canResend={canResend} busy={busy} onResend={() => auth.send({ type: "otp.resend" })} /> : null}
      </div>
    </ModalForm>
  )
}

const ResendButton = ({ countdown, canResend, busy, onResend }: {
  countdown: ActorRefFrom<typeof otpCountdownMachine>
  canResend: boolean
  busy: boolean
  onResend: () => void
}) => {
  const remaining = useSelector(countdown, (s) => s.context.remaining)
  const waiting = useSelector(countdown, (s) => s.hasTag("waiting"))
  return (
    <button type="button" disabled={!canResend || waiting || busy} onClick={onResend} className="font-600 text-brand disabled:(cursor-not-allowed text-muted)">
      {waiting ? `Resend OTP in ${remaining}s` : "Resend OTP"}
    </button>
  )
}

const ForgotForm = () => {
  const auth = useAuthModalRef()
  const { busy, fieldErrors } = useFormState()
  const [phone, setPhone] = useField("forgot", "phone")
  return (
    <ModalForm onSubmit={() => auth.send({ type: "forgot.submit" })}>
      <p className="m-0 text-sm text-muted">Enter your registered mobile number. We will send you a code to reset your password.</p>
      <Field label="Mobile number" error={fieldErrors.mobileNo}>
        {(p) => <PhoneInput id={p.id} value={phone} onChange={setPhone} invalid={p["aria-invalid"]} describedBy={p["aria-describedby"]} autoFocus />}
      </Field>
      <Submit busy={busy} label="Send OTP" busyLabel="Sending..." />
      <p className="m-0 text-center text-sm text-muted">
        Remembered it? <LinkButton onClick={() => auth.send({ type: "auth.toLogin" })}>Back to login</LinkButton>
      </p>
    </ModalForm>
  )
}

const ResetForm = () => {
  const auth = useAuthModalRef()
  const { busy } = useFormState()
  const mobileNo = useAuthModal((s) => s.context.mobileNo)
  const [otp, setOtp] = useField("reset", "otp")
  const [password, setPassword] = useField("reset", "password")
  const [confirmPassword, setConfirm] = useField("reset", "confirmPassword")
  return (
    <ModalForm onSubmit={() => auth.send({ type: "reset.submit" })}>
      <p className="m-0 text-sm text-muted">
        Enter the code sent to <strong className="text-fg">{mobileNo ? formatPhone(mobileNo) : "your number"}</strong> and choose a new password.
      </p>
      <Field label="OTP">
        {(p) => (
          <TextInput {...p} autoFocus inputMode="numeric" autoComplete="one-time-code" maxLength={4} value={otp} onChange={(e) => setOtp(e.target.value)} />
        )}
      </Field>
      <Field label="New password" hint={PASSWORD_HINT}>
        {(p) => <PasswordInput {...p} autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      <Field label="Confirm new password">
        {(p) => <PasswordInput {...p} autoComplete="new-password" value={confirmPassword} onChange={(e) => setConfirm(e.target.value)} />}
      </Field>
      <Submit busy={busy} label="Reset password" busyLabel="Resetting..." />
      <p className="m-0 text-center text-sm text-muted">
        <LinkButton onClick={() => auth.send({ type: "auth.toLogin" })}>Back to login</LinkButton>
      </p>
    </ModalForm>
  )
}

const ResetDone = () => {
  const auth = useAuthModalRef()
  return (
    <div className="flex flex-col items-center gap-4 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-ok/15 text-ok" aria-hidden="true">
        <Icon name="key" size={24} />
      </span>
      <p className="m-0">Your password has been reset. Log in with your new password.</p>
      <button type="button" className="btn-brand w-full" onClick={() => auth.send({ type: "auth.toLogin" })} autoFocus>Login</button>
    </div>
  )
}

const ChangePasswordForm = () => {
  const auth = useAuthModalRef()
  const { busy, error, fieldErrors } = useFormState()
  const [oldPassword, setOld] = useField("changePassword", "oldPassword")
  const [password, setPassword] = useField("changePassword", "password")
  const [confirmPassword, setConfirm] = useField("changePassword", "confirmPassword")
  return (
    <ModalForm onSubmit={() => auth.send({ type: "password.submit" })}>
      <Alert message={error} />
      <Field label="Current password" error={fieldErrors.oldPassword === "" ? undefined : fieldErrors.oldPassword}>
        {(p) => <PasswordInput {...p} aria-invalid={"oldPassword" in fieldErrors} autoFocus autoComplete="current-password" required value={oldPassword} onChange={(e) => setOld(e.target.value)} />}
      </Field>
      <Field label="New password" hint={PASSWORD_HINT}>
        {(p) => <PasswordInput {...p} aria-invalid={"password" in fieldErrors} autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      <Field label="Confirm new password">
        {(p) => <PasswordInput {...p} aria-invalid={"confirmPassword" in fieldErrors} autoComplete="new-password" required value={confirmPassword} onChange={(e) => setConfirm(e.target.value)} />}
      </Field>
      <Submit busy={busy} label="Change password" busyLabel="Saving..." />
    </ModalForm>
  )
}
