/**
 * `npm run env-file`: writes deploy/khel.env, the environment file an operator copies (systemd's
 * EnvironmentFile=/etc/khel/khel.env), from the settings list in server/config.ts: every setting the server reads,
 * with what it does and its default. `tests/server/deploy.test.ts` fails when the file is not what this writes
 * now, or when the server reads a variable the list does not name.
 */
import { writeFileSync } from "node:fs"
import { SETTINGS } from "../server/config.ts"

export const ENV_FILE = "deploy/khel.env"

/** What a production deployment sets differently from the defaults (the rest stays commented out). */
const PRODUCTION: Partial<Record<(typeof SETTINGS)[number]["name"], string>> = {
  HOST: "127.0.0.1",
  DATA_DIR: "/var/lib/khel",
  DATABASE_URL: "postgres://khel:CHANGE-ME@127.0.0.1:5432/khel",
  DIST_DIR: "/opt/khel/dist",
  SEED_DEMO: "false",
  TRUST_PROXY: "true"
}

export const envFile = () =>
  [
    "# Khel server settings: /etc/khel/khel.env, read by every server (deploy/systemd/khel@.service), with each server's",
    "# own PORT, SERVER_ID and METRICS_PORT in /etc/khel/<server>.env. Written by `npm run env-file` from server/config.ts.",
    "# Each setting with its default; the lines set are what a production deployment behind nginx changes.",
    "# NODE_ENV=production comes from the unit. Keep this file readable by root and the khel user only (chmod 640).",
    ...SETTINGS.flatMap((setting) => {
      const value = PRODUCTION[setting.name]
      return [
        "",
        `# ${setting.about} (default: ${setting.default === "" ? "unset" : setting.default})`,
        value === undefined ? `#${setting.name}=${setting.default}` : `${setting.name}=${value}`
      ]
    })
  ].join("\n") + "\n"

if (import.meta.main) {
  writeFileSync(ENV_FILE, envFile())
  console.log(`wrote ${ENV_FILE}`)
}
