import { Roles } from "../../src/schema/roles.ts"

/**
 * The desk's demo staff (README): a director and the admin with a second factor whose TOTP secrets are printed
 * in README for local use (any authenticator app, or `npm run admin -- totp <username>`), and support without one.
 */
export const DEMO_STAFF = [
  { name: "Khel Director", username: "director", mobileNo: "+919000000004", password: "Director@1234", role: Roles.DIRECTOR, totpSecret: "KHELDIRECTORDEMOTOTPSECRET234567" },
  { name: "Khel Admin", username: "admin", mobileNo: "+919000000003", password: "Admin@1234", role: Roles.ADMIN, totpSecret: "KHELADMINDEMOTOTPSECRETKEY234567" },
  { name: "Khel Support", username: "support", mobileNo: "+919000000005", password: "Support@1234", role: Roles.SUPPORT_ADMIN, totpSecret: undefined }
] as const
