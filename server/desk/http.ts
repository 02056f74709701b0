import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { formatRupees } from "../../src/domain/money.ts"
import { Api } from "../../src/schema/api.ts"
import { AdjustmentResult } from "../../src/schema/desk/players.ts"
import { ok } from "../../src/schema/envelope.ts"
import { CurrentStaff } from "../../src/schema/middleware.ts"
import { sqlDefects } from "../edge/defects.ts"
import { idempotent } from "../edge/guards.ts"
import { clientOf } from "../identity/http.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { Uploads } from "../uploads/Uploads.ts"
import { indiaDay } from "../../src/domain/ranges.ts"
import { Casino } from "../casino/Casino.ts"
import { Adjustments } from "./Adjustments.ts"
import { Audit } from "./Audit.ts"
import { Decisions, type RequestKind } from "./Decisions.ts"
import { Players } from "./Players.ts"
import { Queues } from "./Queues.ts"
import { actorOf, Staff, staffActorOf } from "./Staff.ts"
import { StaffAccounts } from "./StaffAccounts.ts"

/** Signing in on the desk: the token travels in `meta.token`, as the player site's does. */
export const DeskSignInHandlers = HttpApiBuilder.group(Api, "deskSignIn", Effect.fn(function*(handlers) {
  const staff = yield* Staff
  return handlers.handleAll(sqlDefects(handlers, {
    signIn: ({ payload, request }) =>
      Effect.map(staff.signIn(payload, clientOf(request)), ({ answer, token }) =>
        ok(answer, answer.step === "signedIn" ? "Signed in" : answer.step === "code" ? "Enter the code from your authenticator app" : "Set up your authenticator app", token)
      )
  }))
}))

export const DeskAccountHandlers = HttpApiBuilder.group(Api, "deskAccount", Effect.fn(function*(handlers) {
  const staff = yield* Staff
  return handlers.handleAll(sqlDefects(handlers, {
    me: () => Effect.flatMap(CurrentStaff, (me) => Effect.map(staff.me(me), (member) => ok(member))),
    signOut: () => Effect.flatMap(CurrentStaff, (me) => Effect.as(staff.signOut(me), ok(null, "Signed out"))),
    sessions: () => Effect.flatMap(CurrentStaff, (me) => Effect.map(staff.sessions(me), (list) => ok(list))),
    endSession: ({ params }) => Effect.flatMap(CurrentStaff, (me) => Effect.as(staff.endSession(me, params.id), ok(null, "Session ended"))),
    enrol: () => Effect.flatMap(CurrentStaff, (me) => Effect.map(staff.enrol(me), (enrolment) => ok(enrolment, "Scan the code with your authenticator app"))),
    confirmSecondFactor: ({ payload }) =>
      Effect.flatMap(CurrentStaff, (me) => Effect.map(staff.confirmSecondFactor(me, payload.code), (member) => ok(member, "Two-step sign-in is on"))),
    changePassword: ({ payload }) => Effect.flatMap(CurrentStaff, (me) => Effect.as(staff.changePassword(me, payload), ok(null, "Password Changed")))
  }))
}))

export const DeskStaffHandlers = HttpApiBuilder.group(Api, "deskStaff", Effect.fn(function*(handlers) {
  const staff = yield* StaffAccounts
  const realtime = yield* Realtime
  // Every open desk's settings screen reads the staff list again.
  const told = <A, E, R>(write: Effect.Effect<A, E, R>) => Effect.tap(write, () => realtime.notifyDesk("settings", "staff"))
  return handlers.handleAll(sqlDefects(handlers, {
    list: () => Effect.map(staff.list, (list) => ok(list)),
    create: ({ payload }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(told(staff.create(actorOf(me), payload)), (account) => ok(account, `Staff account ${account.username} created`))),
    update: ({ params, payload }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(told(staff.update(actorOf(me), params.id, payload)), (account) => ok(account, "Staff account saved")))
  }))
}))

export const DeskAuditHandlers = HttpApiBuilder.group(Api, "deskAudit", Effect.fn(function*(handlers) {
  const audit = yield* Audit
  return handlers.handleAll(sqlDefects(handlers, {
    search: ({ query }) => Effect.map(audit.search(query), (page) => ok(page)),
    export: ({ query }) => audit.csv(query)
  }))
}))

export const DeskQueuesHandlers = HttpApiBuilder.group(Api, "deskQueues", Effect.fn(function*(handlers) {
  const queues = yield* Queues
  const decisions = yield* Decisions
  const uploads = yield* Uploads
  const claim = (kind: RequestKind, id: string) =>
    Effect.flatMap(CurrentStaff, (me) => Effect.map(decisions.claim(staffActorOf(me), kind, id), (claimed) => ok(claimed, "Claimed: it is yours to decide")))
  const release = (kind: RequestKind, id: string) =>
    Effect.flatMap(CurrentStaff, (me) => Effect.as(decisions.release(staffActorOf(me), kind, id), ok(null, "Released")))
  return handlers.handleAll(sqlDefects(handlers, {
    deposits: ({ query }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(queues.deposits(query, me), (page) => ok(page))),
    deposit: ({ params }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(queues.deposit(params.id, me), (detail) => ok(detail))),
    claimDeposit: ({ params }) => claim("deposit", params.id),
    releaseDeposit: ({ params }) => release("deposit", params.id),
    withdrawals: ({ query }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(queues.withdrawals(query, me), (page) => ok(page))),
    withdrawal: ({ params }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(queues.withdrawal(params.id, me), (detail) => ok(detail))),
    claimWithdrawal: ({ params }) => claim("withdrawal", params.id),
    releaseWithdrawal: ({ params }) => release("withdrawal", params.id),
    screenshot: ({ params }) =>
      Effect.flatMap(CurrentStaff, (me) => Effect.map(uploads.read(me, params.id), (image) => ok({ _id: params.id, image })))
  }))
}))

/** The toast of an adjustment: done (the balance after), waiting for a second approver, or how its request ended. */
const adjustmentMessage = ({ approval, main }: AdjustmentResult, direction = approval?.direction) => {
  const moved = `${direction === "debit" ? "Debited" : "Credited"}: the main balance is now ${formatRupees(main)}`
  switch (approval?.status) {
    case undefined:
      return moved
    case "pending":
      return "Waiting for a second approver: the adjustment is above the threshold"
    case "approved":
      return `Approved. ${moved}`
    case "cancelled":
      return "Request withdrawn"
    case "rejected":
      return "Request declined"
  }
}

export const DeskPlayersHandlers = HttpApiBuilder.group(Api, "deskPlayers", Effect.fn(function*(handlers) {
  const players = yield* Players
  const adjustments = yield* Adjustments
  const casino = yield* Casino
  return handlers.handleAll(sqlDefects(handlers, {
    search: ({ query }) => Effect.map(players.search(query), (page) => ok(page)),
    player: ({ params }) => Effect.map(players.detail(params.id), (detail) => ok(detail)),
    casinoRounds: ({ params, query }) =>
      Effect.map(Effect.andThen(players.player(params.id), casino.betsByDate(params.id, "all", query.date ?? indiaDay(new Date()))), (rounds) => ok(rounds)),
    note: ({ params, payload }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(players.note(staffActorOf(me), params.id, payload.body), (note) => ok(note, "Note added"))),
    status: ({ params, payload }) =>
      Effect.flatMap(CurrentStaff, (me) =>
        Effect.map(players.setStatus(actorOf(me), params.id, payload), (player) => ok(player, player.status === "suspended" ? `${player.username} is suspended` : `${player.username} is active again`))
      ),
    endSessions: ({ params }) =>
      Effect.flatMap(CurrentStaff, (me) => Effect.map(players.endSessions(actorOf(me), params.id), (ended) => ok({ ended }, ended === 1 ? "1 session ended" : `${ended} sessions ended`))),
    adjust: ({ params, payload, request }) =>
      Effect.flatMap(CurrentStaff, (me) =>
        Effect.map(idempotent(request, me.id, { id: params.id, payload }, AdjustmentResult, adjustments.adjust(actorOf(me), params.id, payload)), (result) => ok(result, adjustmentMessage(result, payload.direction)))
      ),
    adjustments: ({ query }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(adjustments.pending(query, me.id), (page) => ok(page))),
    approveAdjustment: ({ params, payload, request }) =>
      Effect.flatMap(CurrentStaff, (me) =>
        Effect.map(idempotent(request, me.id, { id: params.id, payload }, AdjustmentResult, adjustments.approve(staffActorOf(me), params.id, payload.remark)), (result) => ok(result, adjustmentMessage(result)))
      ),
    declineAdjustment: ({ params, payload, request }) =>
      Effect.flatMap(CurrentStaff, (me) =>
        Effect.map(idempotent(request, me.id, { id: params.id, payload }, AdjustmentResult, adjustments.decline(staffActorOf(me), params.id, payload.remark)), (result) => ok(result, adjustmentMessage(result)))
      )
  }))
}))
