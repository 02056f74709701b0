import { Effect, Schema } from "effect"
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs"
import { join } from "node:path"

export class DataDirLocked extends Schema.TaggedError<DataDirLocked>()("DataDirLocked", {
  message: Schema.String
}) {}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Locks this process holds, so a second server inside one process is refused too. */
const held = new Set<string>()

/**
 * Takes `$DATA_DIR/khel.lock` for the life of the scope, so two servers never
 * open one embedded database. A lock left by a process that no longer runs
 * (killed with SIGKILL, power loss) is taken over.
 */
export const acquireDataDirLock = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      mkdirSync(dataDir, { recursive: true })
      const path = join(dataDir, "khel.lock")
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          const fd = openSync(path, "wx")
          writeSync(fd, String(process.pid))
          closeSync(fd)
          held.add(path)
          return path
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
          const owner = Number(readFileSync(path, "utf8").trim())
          const ours = owner === process.pid
          if ((ours && held.has(path)) || (!ours && Number.isInteger(owner) && owner > 0 && isAlive(owner))) {
            return yield* new DataDirLocked({
              message: `${dataDir} is in use by another Khel server (pid ${owner}). Stop it or set DATA_DIR to another folder.`
            })
          }
          unlinkSync(path)
        }
      }
      return yield* new DataDirLocked({ message: `Could not take the lock on ${dataDir}` })
    }),
    (path) => Effect.sync(() => {
      held.delete(path)
      try {
        if (readFileSync(path, "utf8").trim() === String(process.pid)) unlinkSync(path)
      } catch {
        // Already gone: nothing to release.
      }
    })
  )
