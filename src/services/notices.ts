import { Context, Effect, Layer } from "effect"
import type { NoticeStore } from "./noticeStore.ts"

export { createNoticeStore, flash, type Notice, type NoticeStore, showFlash, TOAST_AUTOCLOSE_MS } from "./noticeStore.ts"

export class Notices extends Context.Service<Notices, {
  readonly store: NoticeStore
  success(message: string, subMessage?: string): Effect.Effect<void>
  warning(message: string, subMessage?: string): Effect.Effect<void>
  error(message: string, subMessage?: string): Effect.Effect<void>
}>()("khel/Notices") {
  static readonly make = (store: NoticeStore) =>
    Layer.succeed(Notices, {
      store,
      success: (message, subMessage) => Effect.sync(() => store.show("success", message, subMessage)),
      warning: (message, subMessage) => Effect.sync(() => store.show("warning", message, subMessage)),
      error: (message, subMessage) => Effect.sync(() => store.show("error", message, subMessage))
    })
}
