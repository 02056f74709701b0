import { Context, Layer } from "effect"
import { hostname } from "node:os"
import { resolve } from "node:path"

/**
 * The limits that protect the site from abuse, each an operator setting
 * (docs/security.md lists them with their defaults).
 */
export interface AbuseLimits {
  /** Codes sent to any numbers from one address in an hour (SMS pumping). */
  readonly smsPerAddressPerHour: number
  /** Codes sent by the whole site in an hour: a ceiling on the SMS bill. */
  readonly smsPerHour: number
  /** Failed sign-ins from one address in 15 minutes before the address waits 15 minutes. */
  readonly signInFailuresPerAddress: number
  /** Hours an unverified sign-up is kept before it is removed. */
  readonly pendingSignUpHours: number
  /** Deposit requests a player may have waiting for an operator. */
  readonly pendingDepositsPerPlayer: number
  /** Screenshot bytes a player may upload in 24 hours. */
  readonly screenshotBytesPerDay: number
  /** Visitor cookies given to browsers at one address in an hour (each is a voice in the vitals report). */
  readonly visitorsPerAddressPerHour: number
}

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
   * How many reverse proxies in front of the server are trusted to say who the
   * client is (`X-Forwarded-For`) and whether it came over TLS
   * (`X-Forwarded-Proto`). 0: none, the socket's address is the client.
   */
  readonly trustProxy: number
  readonly limits: AbuseLimits
  /**
   * Tests only: the server's clock can be moved forward (POST /api/v1/test/clock), so
   * time-based rules (limits' windows and cooling-off, time-outs, exclusions) are tested
   * without waiting. Refused in production.
   */
  readonly testClock: boolean
  /**
   * This server's name among several (SERVER_ID): socket.io clients are sent back to it by the
   * khel_server cookie (docs/deploy.md), and the odds leadership records it.
   */
  readonly serverId: string
  /** Whether SERVER_ID was set: only then do socket.io clients get the khel_server cookie. */
  readonly namedServer: boolean
}

export const DEFAULT_LIMITS: AbuseLimits = {
  smsPerAddressPerHour: 10,
  smsPerHour: 1000,
  signInFailuresPerAddress: 50,
  pendingSignUpHours: 24,
  pendingDepositsPerPlayer: 3,
  screenshotBytesPerDay: 20 * 1024 * 1024,
  visitorsPerAddressPerHour: 60
}

const LOG_LEVELS = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const

const isOn = (value: string | undefined) => value !== undefined && ["1", "true", "on", "yes"].includes(value.toLowerCase())

const parseLogLevel = (value: string | undefined) => {
  if (value === undefined || value === "") return "Info"
  const level = LOG_LEVELS[value.toLowerCase() as keyof typeof LOG_LEVELS]
  if (!level) throw new Error(`LOG_LEVEL must be one of debug, info, warn, error; got ${value}`)
  return level
}

/** A whole number of at least `min`, or the default when unset. */
const count = (env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1) => {
  const value = env[name]
  if (value === undefined || value === "") return fallback
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be a whole number of at least ${min}, got ${value}`)
  return n
}

/** TRUST_PROXY: unset, `false` or 0 trusts nobody; `true` one proxy; a number that many. */
const parseTrustProxy = (value: string | undefined) => {
  if (value === undefined || value === "" || value === "false") return 0
  if (value === "true") return 1
  const hops = Number(value)
  if (!Number.isInteger(hops) || hops < 0 || hops > 10) throw new Error(`TRUST_PROXY must be true, false or a number of proxies (0-10), got ${value}`)
  return hops
}

export class ServerConfig extends Context.Service<ServerConfig, ServerConfigShape>()("khel/ServerConfig") {
  static fromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfigShape> = {}): ServerConfigShape {
    const port = Number(env.PORT ?? 8080)
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`)
    if (env.SERVER_ID && !/^[A-Za-z0-9_-]{1,32}$/.test(env.SERVER_ID)) throw new Error(`SERVER_ID must be 1-32 letters, digits, - or _; got ${env.SERVER_ID}`)
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
      trustProxy: parseTrustProxy(env.TRUST_PROXY),
      limits: {
        smsPerAddressPerHour: count(env, "SMS_PER_ADDRESS_PER_HOUR", DEFAULT_LIMITS.smsPerAddressPerHour),
        smsPerHour: count(env, "SMS_PER_HOUR", DEFAULT_LIMITS.smsPerHour),
        signInFailuresPerAddress: count(env, "SIGNIN_FAILURES_PER_ADDRESS", DEFAULT_LIMITS.signInFailuresPerAddress),
        pendingSignUpHours: count(env, "PENDING_SIGNUP_HOURS", DEFAULT_LIMITS.pendingSignUpHours),
        pendingDepositsPerPlayer: count(env, "PENDING_DEPOSITS_PER_PLAYER", DEFAULT_LIMITS.pendingDepositsPerPlayer),
        screenshotBytesPerDay: count(env, "SCREENSHOT_MB_PER_DAY", DEFAULT_LIMITS.screenshotBytesPerDay / 1024 / 1024) * 1024 * 1024,
        visitorsPerAddressPerHour: count(env, "VISITORS_PER_ADDRESS_PER_HOUR", DEFAULT_LIMITS.visitorsPerAddressPerHour)
      },
      serverId: env.SERVER_ID || `${hostname()}-${process.pid}`,
      namedServer: Boolean(env.SERVER_ID),
      testClock: isOn(env.TEST_CLOCK),
      ...overrides
    }
  }

  static layer = (config: ServerConfigShape) => Layer.succeed(ServerConfig, config)
}
