import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { randomBytes } from "node:crypto"
import { mkdirSync } from "node:fs"
import { readFile, rename, unlink, writeFile } from "node:fs/promises"
import { join } from "node:path"
import sharp from "sharp"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { SCREENSHOT_MAX_BYTES } from "../../src/schema/payments.ts"
import { isStaffRole } from "../../src/domain/staff.ts"
import type { Role } from "../../src/schema/user.ts"
import { ServerConfig } from "../config.ts"
import { decodeFirst, decodeRows } from "../db/rows.ts"

type ImageFormat = "png" | "jpeg" | "webp"

const MIME: Record<ImageFormat, string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" }

/** The format by its first bytes, whatever the file was called or claimed to be. */
export const sniffImage = (bytes: Uint8Array): ImageFormat | undefined => {
  const starts = (...sig: Array<number>) => sig.every((b, i) => bytes[i] === b)
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png"
  if (starts(0xff, 0xd8, 0xff)) return "jpeg"
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "webp"
  return undefined
}

export const UPLOAD_MESSAGES = {
  notImage: "The screenshot must be a PNG, JPEG or WebP image.",
  tooLarge: `The screenshot must be at most ${SCREENSHOT_MAX_BYTES / 1024 / 1024} MB.`,
  unreadable: "The screenshot could not be read as an image. Please upload another one."
} as const

/** Decompression bombs: a 5 MB file may not unpack into more than this many pixels. */
const MAX_PIXELS = 40_000_000

const Stored = Schema.Struct({
  userId: Schema.String,
  file: Schema.NullOr(Schema.String),
  mime: Schema.String,
  data: Schema.NullOr(Schema.Uint8Array)
})

/**
 * Payment screenshots. Only PNG, JPEG and WebP (by content), at most 5 MB
 * decoded; each is re-encoded (which drops EXIF, GPS and any other metadata,
 * and anything hidden after the image data). With PostgreSQL the bytes go in
 * the database, so every server serves every screenshot; with the embedded
 * database they go in a file named by the server in `$DATA_DIR/uploads`.
 * Only the owner and operators read one.
 * A player may upload SCREENSHOT_MB_PER_DAY in 24 hours (the images kept, plus the one arriving).
 */
export class Uploads extends Context.Service<Uploads, {
  /** Stores a data URL (or bare base64) for `userId`; returns the upload's id. */
  store(userId: string, dataUrl: string): Effect.Effect<string, ApiError | SqlError.SqlError>
  /** The image as a data URL, for its owner or an operator. */
  read(viewer: { id: string; role: Role }, id: string): Effect.Effect<string, ApiError | SqlError.SqlError>
}>()("khel/Uploads") {
  static readonly layer = Layer.effect(
    Uploads,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { dataDir, databaseUrl, limits } = yield* ServerConfig
      const dir = join(dataDir, "uploads")
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      const inDatabase = databaseUrl !== undefined

      /**
       * Screenshots filed while this data folder's server kept them on disk go into the database, once:
       * each row's bytes set and its file removed. Rows whose file is on another server's disk wait for
       * that server's start.
       */
      const moveFiles = Effect.gen(function*() {
        const waiting = yield* sql`SELECT id, file FROM uploads WHERE data IS NULL AND file IS NOT NULL`.pipe(
          decodeRows(Schema.Struct({ id: Schema.String, file: Schema.String }))
        )
        let moved = 0
        for (const row of waiting) {
          const bytes = yield* Effect.promise(() => readFile(join(dir, row.file)).catch(() => undefined))
          if (!bytes) continue
          yield* sql`UPDATE uploads SET data = ${bytes}, file = NULL WHERE id = ${row.id} AND data IS NULL`
          yield* Effect.promise(() => unlink(join(dir, row.file)).catch(() => undefined))
          moved++
        }
        if (moved > 0) yield* Effect.logInfo("screenshots moved into the database", { moved, left: waiting.length - moved })
      })
      if (inDatabase) yield* moveFiles.pipe(Effect.orDie)

      const store = Effect.fn("Uploads.store")(function*(userId: string, dataUrl: string) {
        const match = /^(?:data:[\w/+.-]*;base64,)?([A-Za-z0-9+/=\s]*)$/.exec(dataUrl)
        if (!match) return yield* refuse("InvalidInput", UPLOAD_MESSAGES.notImage)
        const base64 = match[1]!.replace(/\s/g, "")
        if (Math.floor((base64.length * 3) / 4) - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0) > SCREENSHOT_MAX_BYTES) {
          return yield* refuse("InvalidInput", UPLOAD_MESSAGES.tooLarge)
        }
        const bytes = Buffer.from(base64, "base64")
        if (bytes.length > SCREENSHOT_MAX_BYTES) return yield* refuse("InvalidInput", UPLOAD_MESSAGES.tooLarge)
        // What a player may upload in a day (callers serialise a player's uploads, so the sum holds).
        const [today] = yield* sql`
          SELECT coalesce(sum(bytes), 0)::float8 AS used FROM uploads WHERE user_id = ${userId} AND created_at > now() - interval '1 day'
        `.pipe(decodeRows(Schema.Struct({ used: Schema.Number })))
        if ((today?.used ?? 0) + bytes.length > limits.screenshotBytesPerDay) {
          return yield* refuse("QuotaExceeded", `You have uploaded the most screenshots allowed in a day (${limits.screenshotBytesPerDay / 1024 / 1024} MB). Please give the transaction reference instead, or try again tomorrow.`)
        }
        const format = sniffImage(bytes)
        if (!format) return yield* refuse("InvalidInput", UPLOAD_MESSAGES.notImage)
        const clean = yield* Effect.tryPromise({
          try: () =>
            sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: "error" })
              .rotate() // apply the EXIF orientation before the metadata goes
              .toFormat(format, format === "png" ? { compressionLevel: 8 } : { quality: 85 })
              .toBuffer(),
          catch: () => refuse("InvalidInput", UPLOAD_MESSAGES.unreadable)
        })
        const id = randomBytes(16).toString("hex")
        if (inDatabase) {
          yield* sql`INSERT INTO uploads (id, user_id, data, mime, bytes) VALUES (${id}, ${userId}, ${clean}, ${MIME[format]}, ${clean.length})`
          return id
        }
        const file = `${id}.${format === "jpeg" ? "jpg" : format}`
        // Write then rename, so a crash never leaves half a file under the final name.
        yield* Effect.promise(async () => {
          await writeFile(join(dir, `${file}.part`), clean, { mode: 0o600 })
          await rename(join(dir, `${file}.part`), join(dir, file))
        })
        yield* sql`INSERT INTO uploads (id, user_id, file, mime, bytes) VALUES (${id}, ${userId}, ${file}, ${MIME[format]}, ${clean.length})`
        return id
      })

      const read = Effect.fn("Uploads.read")(function*(viewer: { id: string; role: Role }, id: string) {
        const row = yield* sql`SELECT user_id, file, mime, data FROM uploads WHERE id = ${id}`.pipe(decodeFirst(Stored))
        if (!row) return yield* refuse("NotFound", "There is no such screenshot.")
        // Its owner, or staff on the desk (agents are refused like players).
        if (row.userId !== viewer.id && !isStaffRole(viewer.role)) return yield* refuse("Forbidden", "This screenshot belongs to another account.")
        const file = row.file
        const bytes = row.data ?? (file === null ? undefined : yield* Effect.tryPromise({ try: () => readFile(join(dir, file)), catch: () => refuse("NotFound", "The screenshot file is missing.") }))
        if (!bytes) return yield* refuse("NotFound", "The screenshot file is missing.")
        return `data:${row.mime};base64,${Buffer.from(bytes).toString("base64")}`
      })

      return Uploads.of({ store, read })
    })
  )
}
