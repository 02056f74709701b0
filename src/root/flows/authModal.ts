import { Effect } from "effect"
import { authModalMachine, LOGGED_IN } from "../../machines/authModal.machine.ts"
import type { Written } from "../../machines/writes.ts"
import { IdentityApi, SessionApi } from "../../schema/identity.ts"
import { Api } from "../../services/api.ts"
import { flash } from "../../services/notices.ts"
import { navigator } from "../../services/runtime.ts"
import { Storage } from "../../services/storage.ts"
import { data, effect, failures, task, toast, toastFailure, toastSuccess, written } from "../bridge.ts"
import {
  changePasswordPayload,
  forgotPasswordPayload,
  loginPayload,
  resendOtpPayload,
  resetPasswordPayload,
  signUpPayload,
  verifyOtpPayload
} from "../requests.ts"

const identity = IdentityApi.endpoints

/** Login and a verified sign-up both answer the user, with the session's token in the envelope's meta. */
const signedIn = <U>(envelope: { readonly data: U; readonly meta: { readonly token?: string | undefined } }) => ({ token: envelope.meta.token ?? "", user: envelope.data })

/**
 * The sign-in modals with their world: the identity calls (failures carry the
 * server's message, which the machine shows or not as SPEC section 8 says),
 * toasts, the reload after login, and the sign-up number in session storage.
 */
export default authModalMachine.provide({
  actors: {
    login: task((form) => Api.use((api) => api.call(identity.login, { payload: loginPayload(form) })).pipe(Effect.map(signedIn), failures)),
    signUp: task((form) =>
      data(Api.use((api) => api.call(identity.signUp, { payload: signUpPayload(form) }))).pipe(Effect.map((signedUp) => signedUp.mobile_no))
    ),
    verifyOtp: task((request) =>
      Api.use((api) => api.call(identity.verifyOtp, { payload: verifyOtpPayload(request) })).pipe(Effect.map(signedIn), failures)
    ),
    resendOtp: task<Written, { mobileNo: string }>((request) => written(Api.use((api) => api.call(identity.resendOtp, { payload: resendOtpPayload(request) })))),
    forgotPassword: task((request) =>
      data(Api.use((api) => api.call(identity.forgotPassword, { payload: forgotPasswordPayload(request) }))).pipe(
        Effect.map((sent) => sent?.mobile_no ?? forgotPasswordPayload(request).mobile_no)
      )
    ),
    resetPassword: task((request) =>
      data(Api.use((api) => api.call(identity.forgotPassword, { payload: resetPasswordPayload(request) }))).pipe(Effect.asVoid)
    ),
    changePassword: task((form) =>
      Api.use((api) => api.call(SessionApi.endpoints.changePassword, { payload: changePasswordPayload(form) })).pipe(Effect.map((envelope) => envelope.meta.token ?? ""), failures)
    )
  },
  actions: {
    notice: toast("warning"),
    errorToast: toast("error"),
    success: toast("success"),
    toastSuccess,
    toastFailure,
    // SPEC section 4: after login, go to / and reload; the notice is shown once the site is back.
    reloadHome: () => {
      flash("success", LOGGED_IN)
      location.assign("/")
    },
    goHome: () => navigator.go("/"),
    saveSignUpData: (_, p: { mobileNo: string }) => effect(Storage.use((s) => s.saveSignUpData({ mobileNo: p.mobileNo }))),
    clearSignUpData: () => effect(Storage.use((s) => s.clearSignUpData))
  }
})
