import { Schema } from "effect"

export const ToastType = Schema.Literals(["success", "warning", "error"])
export type ToastType = typeof ToastType.Type

export const Toast = Schema.Struct({
  show: Schema.Boolean,
  type: ToastType,
  message: Schema.String,
  subMessage: Schema.optionalKey(Schema.String)
})
export type Toast = typeof Toast.Type

/** A toast kept across a full page load (login reloads the site): src/services/noticeStore.ts. */
export const Flash = Schema.Struct({ type: ToastType, message: Schema.String, subMessage: Schema.optionalKey(Schema.String) })
export type Flash = typeof Flash.Type
