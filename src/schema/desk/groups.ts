import { DeskAuditApi } from "./audit.ts"
import { DeskPlayersApi } from "./players.ts"
import { DeskMarketsApi } from "./markets.ts"
import { DeskQueuesApi } from "./queues.ts"
import { DeskReportsApi } from "./reports.ts"
import { DeskBannersApi, DeskSettingsApi } from "./settings.ts"
import { DeskAccountApi, DeskSignInApi, DeskStaffApi } from "./staff.ts"

/** The desk's groups, in the order the API document lists them (src/schema/api.ts adds them to the whole API). */
export const DESK_GROUPS = [DeskSignInApi, DeskAccountApi, DeskQueuesApi, DeskPlayersApi, DeskStaffApi, DeskAuditApi, DeskMarketsApi, DeskReportsApi, DeskSettingsApi, DeskBannersApi] as const
