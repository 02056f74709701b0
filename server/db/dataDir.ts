import { Effect } from "effect"
import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs"
import { join } from "node:path"

export const FILE_MODE = 0o600
export const FOLDER_MODE = 0o700

const fix = (path: string) => {
  const stat = lstatSync(path)
  // A link is left alone: it may point outside the folder, which is not ours to change.
  if (stat.isSymbolicLink()) return
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== FOLDER_MODE) chmodSync(path, FOLDER_MODE)
    for (const entry of readdirSync(path)) fix(join(path, entry))
  } else if ((stat.mode & 0o777) !== FILE_MODE) {
    chmodSync(path, FILE_MODE)
  }
}

/**
 * `DATA_DIR` holds the database, payment screenshots and (in development)
 * OTP codes: only the server's own user may read or write it. Folders are
 * made 0700 and files 0600, once at start for a folder that exists already
 * (PGlite unpacks its files world-writable), and files this process creates
 * from then on are private too (umask 077).
 */
export const secureDataDir = (dataDir: string) =>
  Effect.sync(() => {
    try {
      process.umask(0o077)
    } catch {
      // Worker threads may not change the umask; the sweep below still fixes what exists.
    }
    mkdirSync(dataDir, { recursive: true, mode: FOLDER_MODE })
    fix(dataDir)
  }).pipe(Effect.withSpan("secureDataDir"))
