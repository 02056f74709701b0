import { Context, Layer } from "effect"
import { hostname } from "node:os"
import { resolve } from "node:path"

/** Everything the server reads from its environment, read once at start. */
export interface ServerConfigShape {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  /** PostgreSQL instead of the embedded PGlite when set. */
  readonly databaseUrl: string | undefined
  readonly production: boolean
  /** Where the built site lives (vite's outDir). */
  readonly distDir: string
  /** Load demo data into an empty database. */
  readonly seedDemo: boolean
  readonly smsProvider: string
  /** Lowest log level written: Debug, Info (each request is logged), Warn, Error. */
  readonly logLevel: "Debug" | "Info" | "Warn" | "Error"
  /** One log line per HTTP request (off for high-volume setups that log at the proxy). */
  readonly logRequests: boolean
  /**
   * This server's name among several (SERVER_ID): socket.io clients are sent back to it by the
   * khel_server cookie (docs/deploy.md), and the odds leadership records it.
   */
  readonly serverId: string
  /** Whether SERVER_ID was set: only then do socket.io clients get the khel_server cookie. */
  readonly namedServer: boolean
}

const LOG_LEVELS = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const

const parseLogLevel = (value: string | undefined) => {
  if (value === undefined || value === "") return "Info"
  const level = LOG_LEVELS[value.toLowerCase() as keyof typeof LOG_LEVELS]
  if (!level) throw new Error(`LOG_LEVEL must be one of debug, info, warn, error; got ${value}`)
  return level
}

export class ServerConfig extends Context.Service<ServerConfig, ServerConfigShape>()("khel/ServerConfig") {
  static fromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfigShape> = {}): ServerConfigShape {
    const port = Number(env.PORT ?? 8080)
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`)
    if (env.SERVER_ID && !/^[A-Za-z0-9_-]{1,32}$/.test(env.SERVER_ID)) throw new Error(`SERVER_ID must be 1-32 letters, digits, - or _; got ${env.SERVER_ID}`)
    return {
      port,
      host: env.HOST ?? "0.0.0.0",
      dataDir: resolve(env.DATA_DIR ?? "./data"),
      databaseUrl: env.DATABASE_URL || undefined,
      production: env.NODE_ENV === "production",
      distDir: resolve(env.DIST_DIR ?? "./dist"),
      seedDemo: env.SEED_DEMO !== "false",
      smsProvider: env.SMS_PROVIDER ?? "console",
      logLevel: parseLogLevel(env.LOG_LEVEL),
      logRequests: env.LOG_REQUESTS !== "false",
      serverId: env.SERVER_ID || `${hostname()}-${process.pid}`,
      namedServer: Boolean(env.SERVER_ID),
      ...overrides
    }
  }

  static layer = (config: ServerConfigShape) => Layer.succeed(ServerConfig, config)
}
