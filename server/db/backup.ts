import { PGlite } from "@electric-sql/pglite"
import { Effect, Schema } from "effect"
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import { promisify } from "node:util"
import { packTar, unpackTar } from "modern-tar"
import pg from "pg"
import { ServerConfig } from "../config.ts"
import { FILE_MODE, secureDataDir } from "./dataDir.ts"
import { acquireDataDirLock } from "./lock.ts"

/** A backup or a restore that cannot be done, said for the operator who asked. */
export class BackupError extends Schema.TaggedError<BackupError>()("BackupError", { message: Schema.String }) {}

const run = promisify(execFile)

/** What an embedded database's backup holds besides PGlite's own dump: the payment screenshots kept on disk. */
const Manifest = Schema.Struct({ format: Schema.Literal("khel-backup/1"), engine: Schema.Literal("pglite"), createdAt: Schema.String })
const MANIFEST = "khel-backup.json"
const DATABASE = "pglite.tar.gz"
const UPLOADS = "uploads/"

/** Writes next to the target and renames: a backup file is whole or absent, never half-written. */
const writeWhole = (file: string, bytes: Uint8Array) => {
  mkdirSync(dirname(file), { recursive: true })
  const partial = join(dirname(file), `.${basename(file)}.partial`)
  writeFileSync(partial, bytes, { mode: FILE_MODE })
  renameSync(partial, file)
}

const fail = (message: string) => new BackupError({ message })
const attempt = <A>(what: string, promise: () => Promise<A>) =>
  Effect.tryPromise({ try: promise, catch: (error) => fail(`${what}: ${error instanceof Error ? error.message : String(error)}`) })

/** A PGlite database open for the length of `use`, with the data folder's lock held (the server must be stopped). */
const withEmbedded = <A>(dataDir: string, options: { readonly loadDataDir?: Blob }, use: (db: PGlite) => Promise<A>) =>
  Effect.scoped(Effect.gen(function*() {
    yield* acquireDataDirLock(dataDir).pipe(Effect.mapError((locked) => fail(`${locked.message} (a backup or restore of the embedded database needs the server stopped)`)))
    const db = yield* Effect.acquireRelease(
      attempt("opening the embedded database", () => PGlite.create(join(dataDir, "pglite"), options)),
      (db) => Effect.promise(() => db.close())
    )
    return yield* attempt("the embedded database", () => use(db))
  }))

const backupEmbedded = (dataDir: string, file: string) =>
  Effect.gen(function*() {
    if (!existsSync(join(dataDir, "pglite"))) return yield* fail(`There is no database in ${dataDir}.`)
    const dump = yield* withEmbedded(dataDir, {}, async (db) => new Uint8Array(await (await db.dumpDataDir("gzip")).arrayBuffer()))
    const uploads = join(dataDir, "uploads")
    const files = existsSync(uploads) ? readdirSync(uploads) : []
    const manifest = JSON.stringify({ format: "khel-backup/1", engine: "pglite", createdAt: new Date().toISOString() } satisfies typeof Manifest.Type)
    const archive = yield* attempt("packing the backup", () =>
      packTar([
        { header: { name: MANIFEST, size: Buffer.byteLength(manifest) }, body: manifest },
        { header: { name: DATABASE, size: dump.byteLength }, body: dump },
        ...files.map((name) => {
          const bytes = readFileSync(join(uploads, name))
          return { header: { name: `${UPLOADS}${name}`, size: bytes.byteLength }, body: new Uint8Array(bytes) }
        })
      ]))
    writeWhole(file, archive)
    return `the embedded database and ${files.length} uploaded file(s)`
  })

const restoreEmbedded = (dataDir: string, file: string) =>
  Effect.gen(function*() {
    const entries = yield* attempt(`reading ${file}`, () => unpackTar(readFileSync(file)))
    const manifest = entries.find((entry) => entry.header.name === MANIFEST)
    const dump = entries.find((entry) => entry.header.name === DATABASE)?.data
    if (!manifest?.data || !dump || !Schema.is(Manifest)(JSON.parse(new TextDecoder().decode(manifest.data)))) {
      return yield* fail(`${file} is not a backup of an embedded Khel database (with DATABASE_URL set, restore a PostgreSQL one).`)
    }
    const database = join(dataDir, "pglite")
    if (existsSync(database) && readdirSync(database).length > 0) {
      return yield* fail(`${dataDir} already holds a database: restore into an empty DATA_DIR, then move it into place.`)
    }
    yield* withEmbedded(dataDir, { loadDataDir: new Blob([dump]) }, (db) => db.query("SELECT 1"))
    const uploads = entries.filter((entry) => entry.header.name.startsWith(UPLOADS) && entry.data && entry.header.name.length > UPLOADS.length)
    mkdirSync(join(dataDir, "uploads"), { recursive: true })
    for (const entry of uploads) writeFileSync(join(dataDir, "uploads", basename(entry.header.name)), entry.data!, { mode: FILE_MODE })
    yield* secureDataDir(dataDir)
    return `the embedded database and ${uploads.length} uploaded file(s)`
  })

/** The PostgreSQL tools take the password from the environment, never from their command line (which `ps` shows). */
const pgConnection = (databaseUrl: string) => {
  const url = new URL(databaseUrl)
  const password = decodeURIComponent(url.password)
  url.password = ""
  return { dbname: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } }
}

const backupPostgres = (databaseUrl: string, file: string) =>
  Effect.gen(function*() {
    const { dbname, env } = pgConnection(databaseUrl)
    mkdirSync(dirname(file), { recursive: true })
    const partial = join(dirname(file), `.${basename(file)}.partial`)
    // One consistent snapshot of the database, as it is while the servers run; pg_restore reads it.
    yield* attempt("pg_dump", () => run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${partial}`, `--dbname=${dbname}`], { env }))
    renameSync(partial, file)
    return "the PostgreSQL database (pg_dump, custom format)"
  })

const restorePostgres = (databaseUrl: string, file: string) =>
  Effect.gen(function*() {
    const { dbname, env } = pgConnection(databaseUrl)
    const tables = yield* attempt("reading the target database", async () => {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      try {
        return Number((await client.query("SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'")).rows[0].n)
      } finally {
        await client.end()
      }
    })
    if (tables > 0) return yield* fail("The database in DATABASE_URL is not empty: restore into a new database (createdb), then point the servers at it.")
    yield* attempt("pg_restore", () =>
      run("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${dbname}`, file], { env }))
    return "the PostgreSQL database"
  })

/**
 * `npm run admin -- backup <file>`: the database the server uses into one file. PostgreSQL: `pg_dump`'s custom
 * format (while the servers run: one consistent snapshot). Embedded: PGlite's dump of its data folder and the
 * uploaded screenshots, in one tar (the server stopped: one process owns DATA_DIR).
 */
export const backup = (file: string) =>
  Effect.gen(function*() {
    const config = yield* ServerConfig
    return config.databaseUrl ? yield* backupPostgres(config.databaseUrl, file) : yield* backupEmbedded(config.dataDir, file)
  })

/** `npm run admin -- restore <file>`: a backup into an empty database (DATABASE_URL's, or an empty DATA_DIR). */
export const restore = (file: string) =>
  Effect.gen(function*() {
    const config = yield* ServerConfig
    if (!existsSync(file)) return yield* fail(`There is no file ${file}.`)
    return config.databaseUrl ? yield* restorePostgres(config.databaseUrl, file) : yield* restoreEmbedded(config.dataDir, file)
  })
