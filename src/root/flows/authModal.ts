import { Effect } from "effect"
import { normalizePhone } from "../../domain/phone.ts"
import type { Region } from "../../domain/regions.ts"
import { authModalMachine } from "../../machines/authModal.machine.ts"
import { IdentityApi, SessionApi } from "../../schema/identity.ts"
import { Api } from "../../services/api.ts"
import { flash } from "../../services/notices.ts"
import { navigator } from "../../services/runtime.ts"
import { Storage } from "../../services/storage.ts"
import { data, effect, failures, task, toast } from "../bridge.ts"

/** A typed phone number in E.164 when it is valid, else as typed (the server explains what is wrong). */
const phone = (input: string) => normalizePhone(input) ?? input.trim()

const identity = IdentityApi.endpoints

/**
 * The sign-in modals with their world: the identity calls (failures carry the
 * server's message, which the machine shows or not as SPEC section 8 says),
 * toasts, the reload after login, and the sign-up number in session storage.
 */
export default authModalMachine.provide({
  actors: {
    login: task((form) =>
      Api.use((api) =>
        api.call(
          identity.login,
          { payload: form.by === "phone" ? { mobile_no: phone(form.mobileNo), password: form.password } : { username: form.username.trim(), password: form.password } },
          { notify: "none" }
        )
      ).pipe(Effect.map((envelope) => ({ token: envelope.meta.token ?? "", user: envelope.data })), failures)
    ),
    signUp: task((form) =>
      data(Api.use((api) =>
        api.call(identity.signUp, {
          payload: {
            name: form.name.trim(),
            mobile_no: phone(form.mobileNo),
            password: form.password,
            confirmPassword: form.confirmPassword,
            ...(form.referralCode.trim() ? { affiliateCode: form.referralCode.trim() } : {}),
            // The machine only submits a ticked box and a chosen state (validateSignUp).
            ageConfirmed: true,
            region: form.region as Region
          }
        }, { notify: "none" })
      )).pipe(Effect.map((signedUp) => signedUp.mobile_no))
    ),
    verifyOtp: task(({ mobileNo, otp }) =>
      Api.use((api) => api.call(identity.verifyOtp, { payload: { mobile_no: mobileNo, otp } }, { notify: "none" })).pipe(
        Effect.map((envelope) => ({ token: envelope.meta.token ?? "", user: envelope.data })),
        failures
      )
    ),
    resendOtp: task(({ mobileNo }) => data(Api.use((api) => api.call(identity.resendOtp, { payload: { mobile_no: mobileNo } }, { notify: "write" }))).pipe(Effect.asVoid)),
    forgotPassword: task(({ mobileNo }) =>
      data(Api.use((api) => api.call(identity.forgotPassword, { payload: { mobile_no: phone(mobileNo) } }, { notify: "none" }))).pipe(
        Effect.map((sent) => sent?.mobile_no ?? phone(mobileNo))
      )
    ),
    resetPassword: task(({ mobileNo, form }) =>
      data(Api.use((api) =>
        api.call(identity.forgotPassword, {
          payload: { mobile_no: mobileNo, otp: form.otp.trim(), password: form.password, confirm_password: form.confirmPassword }
        }, { notify: "none" })
      )).pipe(Effect.asVoid)
    ),
    changePassword: task((form) =>
      Api.use((api) =>
        api.call(SessionApi.endpoints.changePassword, {
          payload: { old_password: form.oldPassword, password: form.password, confirm_password: form.confirmPassword }
        }, { notify: "none" })
      ).pipe(Effect.map((envelope) => envelope.meta.token ?? ""), failures)
    )
  },
  actions: {
    notice: toast("warning"),
    errorToast: toast("error"),
    success: toast("success"),
    // SPEC section 4: after login, go to / and reload; the notice is shown once the site is back.
    reloadHome: () => {
      flash("success", "Logged In")
      location.assign("/")
    },
    goHome: () => navigator.go("/"),
    saveSignUpData: (_, p: { mobileNo: string }) => effect(Storage.use((s) => s.saveSignUpData({ mobileNo: p.mobileNo }))),
    clearSignUpData: () => effect(Storage.use((s) => s.clearSignUpData))
  }
})
