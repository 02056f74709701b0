import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import semver from "semver"
import { describe, expect, it } from "vitest"
import { ServerConfig } from "../../server/config.ts"
import { smsOutboxPath } from "../../server/identity/Sms.ts"

/** What README.md tells a newcomer, checked against what the project does (issue 30, items 18, 19 and 22). */
const readme = readFileSync("README.md", "utf8")
const paragraphs = readme.split(/\n\n+/).map((p) => p.replace(/\n/g, " "))
const paragraphWith = (text: string) => paragraphs.find((p) => p.includes(text))

describe("README", () => {
  it("says EBADENGINE warnings from an older system Node are expected: every package runs on the project's own Node", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { devDependencies: Record<string, string> }
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, { engines?: { node?: string } }> }
    const node = semver.minVersion(pkg.devDependencies.node!)!
    // What npm installs on this machine (another system's native builds are in the lock, not on disk).
    const wanting = Object.entries(lock.packages).filter(([name, entry]) => typeof entry.engines?.node === "string" && existsSync(join(name, "package.json")))
    const refused = wanting.filter(([, entry]) => !semver.satisfies(node, entry.engines!.node!))
    expect(refused.map(([name, entry]) => `${name} ${entry.engines!.node}`)).toEqual([])
    // Some of them do not accept Node 20: those are the warnings README explains.
    expect(wanting.some(([, entry]) => !semver.satisfies("20.19.0", entry.engines!.node!))).toBe(true)
    const line = readme.split("\n").find((l) => l.includes("EBADENGINE"))
    expect(line).toMatch(/npm ci.*EBADENGINE.*expected/)
  })

  it("reads the sign-up code where the server writes it, with or without DATA_DIR", () => {
    const command = /`tail -n1 ("[^"`]*sms-outbox\.jsonl")`/.exec(readme)?.[1]
    expect(command).toBeDefined()
    const elsewhere = mkdtempSync(join(tmpdir(), "khel-readme-"))
    const { DATA_DIR: _, ...rest } = process.env
    for (const env of [{ ...rest }, { ...rest, DATA_DIR: elsewhere }]) {
      const path = execFileSync("sh", ["-c", `printf %s ${command}`], { env, encoding: "utf8" })
      expect(resolve(path)).toBe(smsOutboxPath(ServerConfig.fromEnv(env).dataDir))
    }
  })

  it("says the welcome bonus waits on /bonus to be activated, not that it is credited", () => {
    const bonus = paragraphWith("welcome bonus")
    expect(bonus).toMatch(/waits on `\/bonus` until the player activates it/)
    expect(bonus).not.toMatch(/brings a welcome bonus/)
  })
})
