import { Layer } from "effect"
import { Adjustments } from "./Adjustments.ts"
import { Audit } from "./Audit.ts"
import { Decisions } from "./Decisions.ts"
import { DeskAccountHandlers, DeskAuditHandlers, DeskPlayersHandlers, DeskQueuesHandlers, DeskSignInHandlers, DeskStaffHandlers } from "./http.ts"
import { Players } from "./Players.ts"
import { Markets } from "./Markets.ts"
import { DeskMarketsHandlers, DeskReportsHandlers } from "./marketsHttp.ts"
import { Reports } from "./Reports.ts"
import { Thresholds } from "./Thresholds.ts"
import { Queues } from "./Queues.ts"
import { Staff } from "./Staff.ts"
import { StaffAccounts } from "./StaffAccounts.ts"
import { Settings } from "../settings/Settings.ts"
import { DeskBannersHandlers, DeskSettingsHandlers } from "./settingsHttp.ts"
import { Banners } from "./Banners.ts"
import { SiteSettings } from "./SiteSettings.ts"
import { BonusRules } from "./BonusRules.ts"

/** The audit and the decisions on requests: what the desk and the command line share (on payments, realtime and the database). */
export const DeskCoreLive = Decisions.layer.pipe(Layer.provideMerge(Audit.layer))

/** The desk's services: staff and their sessions on top of the core (and identity's users, passwords and throttle). */
export const DeskServicesLive = Layer.mergeAll(Staff.layer, StaffAccounts.layer, Queues.layer, Players.layer, Layer.mergeAll(SiteSettings.layer, BonusRules.layer).pipe(Layer.provide(Settings.layer)), Banners.layer).pipe(Layer.provideMerge(DeskCoreLive))

/** Markets and risk, and manual adjustments, with the four-eyes thresholds: over betting's settlement and the odds feed (server/app.ts provides them). */
export const DeskMarketsLive = Layer.mergeAll(Markets.layer, Reports.layer, Adjustments.layer).pipe(Layer.provideMerge(Thresholds.layer), Layer.provide(Audit.layer))

/** The HTTP groups of src/schema/desk/. */
export const DeskHandlersLive = Layer.mergeAll(DeskSignInHandlers, DeskAccountHandlers, DeskQueuesHandlers, DeskStaffHandlers, DeskAuditHandlers, DeskPlayersHandlers, DeskMarketsHandlers, DeskReportsHandlers, DeskSettingsHandlers, DeskBannersHandlers)
