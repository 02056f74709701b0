import type { FormEvent } from "react"
import { signInStep } from "../machines/desk.machine.ts"
import { DeskActor } from "./desk-actor.ts"

/** Sign-in: username and password, then the authenticator's code, or first the authenticator's enrolment. */
export const SignIn = () => {
  const desk = DeskActor.useActorRef()
  const step = DeskActor.useSelector(signInStep)
  const busy = DeskActor.useSelector((s) => s.hasTag("busy"))
  const credentials = DeskActor.useSelector((s) => s.context.credentials)
  const refusal = DeskActor.useSelector((s) => s.context.refusal)
  const ended = DeskActor.useSelector((s) => s.context.ended)
  const enrolment = DeskActor.useSelector((s) => s.context.enrolment)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    desk.send({ type: "signIn.submit" })
  }
  const change = (field: "username" | "password" | "code") => (event: { target: { value: string } }) => desk.send({ type: "field.change", field, value: event.target.value })
  return (
    <main className="signin">
      <form className="card stack" onSubmit={submit} aria-label="Sign in to the desk">
        <h1>Khel desk</h1>
        {ended && step === "credentials" && <p className="alert alert-warn">{ended}</p>}
        {step === "credentials" && (
          <>
            <label className="field"><span>Username</span><input className="input" autoComplete="username" value={credentials.username} onChange={change("username")} /></label>
            <label className="field"><span>Password</span><input className="input" type="password" autoComplete="current-password" value={credentials.password} onChange={change("password")} /></label>
          </>
        )}
        {step === "enrol" && enrolment && (
          <div className="stack">
            <p>Your role signs in with a second step. Scan this code with an authenticator app (Google Authenticator, Authy, 1Password), then type the 6 digits it shows.</p>
            <img className="qr" src={enrolment.qr} alt="QR code of your authenticator's set-up" />
            <p className="muted">Or type this key into the app: <span className="mono">{enrolment.secret}</span></p>
          </div>
        )}
        {step !== "credentials" && (
          <label className="field">
            <span>{step === "code" ? "Code from your authenticator app" : "First code from the app"}</span>
            <input className="input mono" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={credentials.code} onChange={change("code")} autoFocus />
          </label>
        )}
        {refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? "Signing in…" : step === "credentials" ? "Sign in" : "Verify"}</button>
          {step !== "credentials" && <button type="button" className="btn" onClick={() => desk.send({ type: "signIn.restart" })}>Start again</button>}
        </div>
      </form>
    </main>
  )
}
