import { Context, Effect, Option } from "effect"
import { HttpApi } from "effect/http-api"
import type { Permission } from "../../src/domain/staff.ts"
import { Api } from "../../src/schema/api.ts"
import { Requires, StaffAuthentication } from "../../src/schema/middleware.ts"
import { Roles } from "../../src/schema/user.ts"
import { Passwords } from "../../server/identity/Passwords.ts"
import { Sessions } from "../../server/identity/Sessions.ts"
import { Users } from "../../server/identity/Users.ts"
import { freshPhone, type TestServer } from "./helpers.ts"

/** Every endpoint the desk's middleware guards, with the permission it names (read from the one API definition). */
export interface DeskEndpoint {
  readonly method: string
  readonly path: string
  readonly requires: Permission | "staff" | undefined
}

export const deskEndpoints = (): ReadonlyArray<DeskEndpoint> => {
  const found: Array<DeskEndpoint> = []
  HttpApi.reflect(Api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, middleware }) => {
      if (!middleware.has(StaffAuthentication as never)) return
      found.push({ method: endpoint.method, path: endpoint.path, requires: Option.getOrUndefined(Context.getOption(endpoint.annotations, Requires)) })
    }
  })
  return found
}

let counter = 0

/** A new account of any role, made directly (no sign-up or desk sign-in): for tests of who may do what. */
export const accountOf = (server: TestServer, role: number, name = "Matrix Account") =>
  server.run(Effect.gen(function*() {
    const users = yield* Users
    const passwords = yield* Passwords
    return yield* users.create({
      name,
      username: `role${role}x${Date.now().toString(36)}${++counter}`,
      mobileNo: freshPhone(),
      passwordHash: yield* passwords.hash("Matrix@Pass123"),
      role: role as never,
      status: "active"
    })
  }))

/**
 * A session for an account: staff get a desk session (as a sign-in with the
 * second factor makes), everyone else a player's session (what the player
 * site's sign-in makes, for agents too).
 */
export const sessionOf = (server: TestServer, user: { readonly id: string; readonly role: number }) =>
  server.run(Sessions.use((sessions) =>
    sessions.create(user.id, { ip: "127.0.0.1" }, [Roles.DIRECTOR, Roles.ADMIN, Roles.SUPPORT_ADMIN].includes(user.role as never) ? "desk" : "player")
  ))

/** An agent's session on the player site (role 3): an operator's role that is not staff, refused on the desk like a player's. */
export const agentToken = async (server: TestServer) => sessionOf(server, await accountOf(server, Roles.AGENT, "Agent Account"))
