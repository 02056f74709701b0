import { Context, Layer } from "effect"
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
  /** A proxy we trust sits in front: its headers (the visitor's address, their region) may be believed. */
  readonly trustProxy: boolean
  /**
   * Tests only: the server's clock can be moved forward (POST /api/v1/test/clock), so
   * time-based rules (limits' windows and cooling-off, time-outs, exclusions) are tested
   * without waiting. Refused in production.
   */
  readonly testClock: boolean
}

const LOG_LEVELS = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const

const isOn = (value: string | undefined) => value !== undefined && ["1", "true", "on", "yes"].includes(value.toLowerCase())

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
    const production = env.NODE_ENV === "production"
    if (production && isOn(env.TEST_CLOCK)) throw new Error("TEST_CLOCK is for tests: it is refused when NODE_ENV=production")
    return {
      port,
      host: env.HOST ?? "0.0.0.0",
      dataDir: resolve(env.DATA_DIR ?? "./data"),
      databaseUrl: env.DATABASE_URL || undefined,
      production,
      distDir: resolve(env.DIST_DIR ?? "./dist"),
      seedDemo: env.SEED_DEMO !== "false",
      smsProvider: env.SMS_PROVIDER ?? "console",
      logLevel: parseLogLevel(env.LOG_LEVEL),
      logRequests: env.LOG_REQUESTS !== "false",
      trustProxy: isOn(env.TRUST_PROXY),
      testClock: isOn(env.TEST_CLOCK),
      ...overrides
    }
  }

  static layer = (config: ServerConfigShape) => Layer.succeed(ServerConfig, config)
}
