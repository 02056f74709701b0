/**
 * Writes a gzip twin next to every text asset of the build, so the server
 * sends compressed files without compressing on each request.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { extname, join } from "node:path"
import { gzipSync } from "node:zlib"

const COMPRESSIBLE = new Set([".js", ".css", ".html", ".svg", ".json", ".txt", ".map"])

const walk = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })

let files = 0
let saved = 0
for (const path of walk(process.argv[2] ?? "dist")) {
  if (!COMPRESSIBLE.has(extname(path)) || path.endsWith(".map")) continue
  const source = readFileSync(path)
  if (source.length < 1024) continue
  const gz = gzipSync(source, { level: 9 })
  if (gz.length >= source.length) continue
  writeFileSync(`${path}.gz`, gz)
  files++
  saved += source.length - gz.length
}
console.log(`gzip: ${files} files, ${(saved / 1024).toFixed(1)} KiB saved`)
