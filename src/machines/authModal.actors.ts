import { Effect } from "effect"
import { normalizePhone } from "../domain/phone.ts"
import type { Region } from "../domain/regions.ts"
import { IdentityApi, SessionApi } from "../schema/identity.ts"
import { Api } from "../services/api.ts"
import { run } from "../services/runtime.ts"
import type { ChangePasswordForm, LoginForm, ResetForm, SignUpForm } from "./authModal.machine.ts"

const identity = IdentityApi
const session = SessionApi

/** A typed phone number in E.164 when it is valid, else as typed (the server explains what is wrong). */
const phone = (input: string) => normalizePhone(input) ?? input.trim()

type Signal = { signal: AbortSignal }

/**
 * The real calls behind the sign-in modals. Failures carry the server's
 * message, which the machine shows (or not) as SPEC section 8 says.
 */
export const auth = {
  login: ({ input, signal }: Signal & { input: LoginForm }) =>
    run(
      Effect.map(
        Api.use((api) =>
          api.call(
            identity.endpoints.login,
            { payload: input.by === "phone" ? { mobile_no: phone(input.mobileNo), password: input.password } : { username: input.username.trim(), password: input.password } },
            { notify: "none" }
          )
        ),
        (envelope) => ({ token: envelope.meta.token ?? "", user: envelope.data })
      ),
      signal
    ),
  signUp: ({ input, signal }: Signal & { input: SignUpForm }) =>
    run(
      Effect.map(
        Api.use((api) =>
          api.call(identity.endpoints.signUp, {
            payload: {
              name: input.name.trim(),
              mobile_no: phone(input.mobileNo),
              password: input.password,
              confirmPassword: input.confirmPassword,
              ...(input.referralCode.trim() ? { affiliateCode: input.referralCode.trim() } : {}),
              // The machine only submits a ticked box and a chosen state (validateSignUp).
              ageConfirmed: true,
              region: input.region as Region
            }
          }, { notify: "none" })
        ),
        (envelope) => envelope.data.mobile_no
      ),
      signal
    ),
  verifyOtp: ({ input, signal }: Signal & { input: { mobileNo: string; otp: string } }) =>
    run(
      Effect.map(
        Api.use((api) => api.call(identity.endpoints.verifyOtp, { payload: { mobile_no: input.mobileNo, otp: input.otp } }, { notify: "none" })),
        (envelope) => ({ token: envelope.meta.token ?? "", user: envelope.data })
      ),
      signal
    ),
  resendOtp: ({ input, signal }: Signal & { input: { mobileNo: string } }) =>
    run(Effect.asVoid(Api.use((api) => api.call(identity.endpoints.resendOtp, { payload: { mobile_no: input.mobileNo } }, { notify: "write" }))), signal),
  forgotPassword: ({ input, signal }: Signal & { input: { mobileNo: string } }) =>
    run(
      Effect.map(
        Api.use((api) => api.call(identity.endpoints.forgotPassword, { payload: { mobile_no: phone(input.mobileNo) } }, { notify: "none" })),
        (envelope) => envelope.data?.mobile_no ?? phone(input.mobileNo)
      ),
      signal
    ),
  resetPassword: ({ input, signal }: Signal & { input: { mobileNo: string; form: ResetForm } }) =>
    run(
      Effect.asVoid(Api.use((api) =>
        api.call(identity.endpoints.forgotPassword, {
          payload: { mobile_no: input.mobileNo, otp: input.form.otp.trim(), password: input.form.password, confirm_password: input.form.confirmPassword }
        }, { notify: "none" })
      )),
      signal
    ),
  changePassword: ({ input, signal }: Signal & { input: ChangePasswordForm }) =>
    run(
      Effect.map(
        Api.use((api) =>
          api.call(session.endpoints.changePassword, {
            payload: { old_password: input.oldPassword, password: input.password, confirm_password: input.confirmPassword }
          }, { notify: "none" })
        ),
        (envelope) => envelope.meta.token ?? ""
      ),
      signal
    )
}
