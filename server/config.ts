import { Context, Layer } from "effect"
import { hostname } from "node:os"
import { resolve } from "node:path"
import { PUSH_SERVICES } from "../src/domain/push.ts"

/**
 * Every environment setting the server reads, with its default as the environment would spell it ("" when unset
 * means something of its own, said in `about`). `deploy/khel.env` is written from this list (`npm run env-file`),
 * and a test fails when the server reads a variable this list does not name.
 */
export const SETTINGS = [
  { name: "NODE_ENV", default: "", about: "production: JSON logs by default, no API docs page; refuses SMS_PROVIDER=console and TEST_CLOCK" },
  { name: "PORT", default: "8080", about: "the site, the API and socket.io" },
  { name: "HOST", default: "0.0.0.0", about: "the address PORT listens on (127.0.0.1 behind a proxy on the same machine)" },
  { name: "SERVER_ID", default: "", about: "this server's name among several (1-32 letters, digits, - or _); unset: <hostname>-<pid>" },
  { name: "DATA_DIR", default: "./data", about: "the embedded database, uploads and the development SMS outbox" },
  { name: "DATABASE_URL", default: "", about: "PostgreSQL (postgres://user:password@host:5432/db); unset: the embedded database in DATA_DIR" },
  { name: "DIST_DIR", default: "./dist", about: "the built site (npm run build)" },
  { name: "SEED_DEMO", default: "true", about: "demo data in an empty database; false in production" },
  { name: "SMS_PROVIDER", default: "console", about: "who sends codes by text message; console writes them to DATA_DIR/sms-outbox.jsonl (refused in production)" },
  { name: "LOG_LEVEL", default: "info", about: "debug, info, warn or error" },
  { name: "LOG_FORMAT", default: "", about: "json (one object per line) or text; unset: json when NODE_ENV=production, else text" },
  { name: "LOG_REQUESTS", default: "true", about: "one log line per HTTP request" },
  { name: "TRUST_PROXY", default: "false", about: "proxies trusted for X-Forwarded-For and X-Forwarded-Proto: false, true (one) or a number" },
  { name: "METRICS_PORT", default: "9464", about: "Prometheus metrics at GET /metrics, never on PORT; 0 picks a free port" },
  { name: "METRICS_HOST", default: "127.0.0.1", about: "the address METRICS_PORT listens on" },
  { name: "OTEL_EXPORTER_OTLP_ENDPOINT", default: "", about: "an OTLP/HTTP collector (http://collector:4318): spans go to <endpoint>/v1/traces; unset: no export" },
  { name: "SMS_PER_ADDRESS_PER_HOUR", default: "10", about: "codes requested from one address in an hour" },
  { name: "SMS_PER_HOUR", default: "1000", about: "codes sent by the whole site in an hour" },
  { name: "SIGNIN_FAILURES_PER_ADDRESS", default: "50", about: "failed sign-ins from one address in 15 minutes before it waits 15 minutes" },
  { name: "PENDING_SIGNUP_HOURS", default: "24", about: "hours an unverified sign-up is kept" },
  { name: "PENDING_DEPOSITS_PER_PLAYER", default: "3", about: "deposit requests a player may have waiting" },
  { name: "SCREENSHOT_MB_PER_DAY", default: "20", about: "screenshot megabytes a player may upload in 24 hours" },
  { name: "VISITORS_PER_ADDRESS_PER_HOUR", default: "60", about: "new visitor cookies handed to one address in an hour" },
  { name: "ODDS_SIMULATOR", default: "on", about: "off: simulated prices, scores and events move only when a test steps them" },
  { name: "ODDS_UPDATES_PER_SECOND", default: "12", about: "simulated price updates per second for each watched event" },
  { name: "VAPID_PUBLIC_KEY", default: "", about: "Web Push's key pair with VAPID_PRIVATE_KEY (npx web-push generate-vapid-keys), one for all servers; unset: made in DATA_DIR/vapid.json in development, no push in production" },
  { name: "VAPID_PRIVATE_KEY", default: "", about: "the private half of VAPID_PUBLIC_KEY (a secret)" },
  { name: "VAPID_SUBJECT", default: "mailto:webpush@khel.invalid", about: "who a push service may contact about our pushes: a mailto: or https: URL" },
  { name: "PUSH_SERVICES", default: "", about: "push services a browser's subscription may name (comma-separated origins, https://*.host); unset: Google, Mozilla, Microsoft and Apple's" },
  { name: "TEST_CLOCK", default: "off", about: "tests only: POST /api/v1/test/clock moves the server's clock (refused in production)" }
] as const

export type SettingName = typeof SETTINGS[number]["name"]

/** A setting's value, or its default when unset or empty. */
export const setting = (env: NodeJS.ProcessEnv, name: SettingName): string => {
  const value = env[name]
  return value === undefined || value === "" ? SETTINGS.find((s) => s.name === name)!.default : value
}

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

/** Web Push (server/push/Push.ts). */
export interface PushConfig {
  /**
   * The VAPID key pair (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, base64url): production needs it, and so do several
   * servers (one pair for all); without it a development server makes one in $DATA_DIR/vapid.json.
   */
  readonly vapid: { readonly publicKey: string; readonly privateKey: string } | undefined
  /** Who a push service may contact about our pushes (VAPID_SUBJECT: a mailto: or https: URL). */
  readonly subject: string
  /** The push services a browser's subscription may name (PUSH_SERVICES, comma-separated origins, `https://*.host`). */
  readonly services: ReadonlyArray<string>
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
  /** One JSON object per log line, or text for people. */
  readonly logFormat: "json" | "text"
  /** Where GET /metrics is served (its own port; 0: a free one). */
  readonly metricsPort: number
  readonly metricsHost: string
  /** The OTLP/HTTP traces endpoint spans are exported to; undefined: none. */
  readonly otlpTracesUrl: string | undefined
  readonly push: PushConfig
}


const LOG_LEVELS = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const

const isOn = (value: string | undefined) => value !== undefined && ["1", "true", "on", "yes"].includes(value.toLowerCase())

const parseLogLevel = (value: string) => {
  const level = LOG_LEVELS[value.toLowerCase() as keyof typeof LOG_LEVELS]
  if (!level) throw new Error(`LOG_LEVEL must be one of debug, info, warn, error; got ${value}`)
  return level
}

/** A whole number of at least `min`, or the default when unset. */
const count = (env: NodeJS.ProcessEnv, name: SettingName, min = 1) => {
  const value = setting(env, name)
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be a whole number of at least ${min}, got ${value}`)
  return n
}

const parsePush = (env: NodeJS.ProcessEnv): PushConfig => {
  const publicKey = setting(env, "VAPID_PUBLIC_KEY") || undefined
  const privateKey = setting(env, "VAPID_PRIVATE_KEY") || undefined
  if ((publicKey === undefined) !== (privateKey === undefined)) throw new Error("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both or neither")
  const subject = setting(env, "VAPID_SUBJECT")
  if (!/^(mailto:|https:\/\/)/.test(subject)) throw new Error(`VAPID_SUBJECT must be a mailto: or https: URL, got ${subject}`)
  const listed = setting(env, "PUSH_SERVICES")
  const services = listed ? listed.split(",").map((service) => service.trim()).filter(Boolean) : PUSH_SERVICES
  return { vapid: publicKey && privateKey ? { publicKey, privateKey } : undefined, subject, services }
}

/** TRUST_PROXY: unset, `false` or 0 trusts nobody; `true` one proxy; a number that many. */
const parseTrustProxy = (value: string) => {
  if (value === "false") return 0
  if (value === "true") return 1
  const hops = Number(value)
  if (!Number.isInteger(hops) || hops < 0 || hops > 10) throw new Error(`TRUST_PROXY must be true, false or a number of proxies (0-10), got ${value}`)
  return hops
}

const limitsFrom = (env: NodeJS.ProcessEnv): AbuseLimits => ({
  smsPerAddressPerHour: count(env, "SMS_PER_ADDRESS_PER_HOUR"),
  smsPerHour: count(env, "SMS_PER_HOUR"),
  signInFailuresPerAddress: count(env, "SIGNIN_FAILURES_PER_ADDRESS"),
  pendingSignUpHours: count(env, "PENDING_SIGNUP_HOURS"),
  pendingDepositsPerPlayer: count(env, "PENDING_DEPOSITS_PER_PLAYER"),
  screenshotBytesPerDay: count(env, "SCREENSHOT_MB_PER_DAY") * 1024 * 1024,
  visitorsPerAddressPerHour: count(env, "VISITORS_PER_ADDRESS_PER_HOUR")
})

export const DEFAULT_LIMITS: AbuseLimits = limitsFrom({})

const portNumber = (env: NodeJS.ProcessEnv, name: SettingName) => {
  const port = Number(setting(env, name))
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number, got ${env[name]}`)
  return port
}

const parseLogFormat = (value: string, production: boolean) => {
  if (value === "") return production ? "json" : "text"
  if (value !== "json" && value !== "text") throw new Error(`LOG_FORMAT must be json or text, got ${value}`)
  return value
}

/** OTEL_EXPORTER_OTLP_ENDPOINT is the collector's base address; traces go to its /v1/traces (as OpenTelemetry's SDKs do). */
const otlpTracesUrl = (value: string) => {
  if (value === "") return undefined
  const url = URL.parse(value)
  if (!url || !/^https?:$/.test(url.protocol)) throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) address, got ${value}`)
  url.pathname = `${url.pathname.replace(/\/$/, "")}/v1/traces`
  return url.toString()
}

export class ServerConfig extends Context.Service<ServerConfig, ServerConfigShape>()("khel/ServerConfig") {
  static fromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfigShape> = {}): ServerConfigShape {
    const serverId = setting(env, "SERVER_ID")
    if (serverId && !/^[A-Za-z0-9_-]{1,32}$/.test(serverId)) throw new Error(`SERVER_ID must be 1-32 letters, digits, - or _; got ${serverId}`)
    const production = env.NODE_ENV === "production"
    const testClock = isOn(setting(env, "TEST_CLOCK"))
    if (production && testClock) throw new Error("TEST_CLOCK is for tests: it is refused when NODE_ENV=production")
    return {
      port: portNumber(env, "PORT"),
      host: setting(env, "HOST"),
      dataDir: resolve(setting(env, "DATA_DIR")),
      databaseUrl: setting(env, "DATABASE_URL") || undefined,
      production,
      distDir: resolve(setting(env, "DIST_DIR")),
      seedDemo: setting(env, "SEED_DEMO") !== "false",
      smsProvider: setting(env, "SMS_PROVIDER"),
      logLevel: parseLogLevel(setting(env, "LOG_LEVEL")),
      logFormat: parseLogFormat(setting(env, "LOG_FORMAT"), production),
      logRequests: setting(env, "LOG_REQUESTS") !== "false",
      trustProxy: parseTrustProxy(setting(env, "TRUST_PROXY")),
      limits: limitsFrom(env),
      serverId: serverId || `${hostname()}-${process.pid}`,
      namedServer: serverId !== "",
      testClock,
      metricsPort: portNumber(env, "METRICS_PORT"),
      metricsHost: setting(env, "METRICS_HOST"),
      otlpTracesUrl: otlpTracesUrl(setting(env, "OTEL_EXPORTER_OTLP_ENDPOINT")),
      push: parsePush(env),
      ...overrides
    }
  }

  static layer = (config: ServerConfigShape) => Layer.succeed(ServerConfig, config)
}
