/**
 * The form rules of SPEC section 5, with their exact messages. The client
 * checks them before sending; the server checks them again for any caller.
 */
import { isRegion } from "./regions.ts"

export type FieldErrors<K extends string> = Partial<Record<K, string>>

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 128
export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN} characters`
/** What a new password must be, as the forms say it under the field: the server refuses a short or guessable one. */
export const PASSWORD_HINT =
  `At least ${PASSWORD_MIN} characters, and hard to guess: not a common password, a common word with symbols and digits added (Password@123), nor your name or number.`

/** Words everyone guesses first on this site: its name, and the demo accounts' passwords' words. */
export const SITE_WORDS = ["khel", "demo", "credit", "admin"] as const

/**
 * The word of a password that is one word with symbols or digits around it
 * ("Password@123", "India@1234", "123#Khel" → the word): such decoration is
 * what everyone adds, so the password is only as strong as its word.
 */
export const decoratedWord = (password: string) => /^[^\p{L}\p{M}]*([\p{L}\p{M}]+)[^\p{L}\p{M}]*$/u.exec(password)?.[1]

const blank = (value: string | undefined) => value === undefined || value.trim() === ""

export const MESSAGES = {
  mobileRequired: "Mobile No is required",
  usernameRequired: "Username is required",
  passwordRequired: "Password is required",
  nameRequired: "Name is required",
  confirmRequired: "Confirm Password is required",
  passwordsDiffer: "Passwords do not match",
  enterMobile: "Please Enter Mobile No",
  fillAll: "Please fill all Fields",
  newPasswordMismatch: "New password and Confirm password mismatch",
  otpRequired: "Otp is required",
  ageRequired: "Please confirm you are 18 or older and accept the terms",
  regionRequired: "Please choose the state you live in"
} as const

export const validateLogin = (input: { by: "phone" | "username"; mobileNo: string; username: string; password: string }) => {
  const errors: FieldErrors<"mobileNo" | "username" | "password"> = {}
  if (input.by === "phone" && blank(input.mobileNo)) errors.mobileNo = MESSAGES.mobileRequired
  if (input.by === "username" && blank(input.username)) errors.username = MESSAGES.usernameRequired
  if (input.password === "") errors.password = MESSAGES.passwordRequired
  return errors
}

export const validateSignUp = (input: {
  name: string
  mobileNo: string
  password: string
  confirmPassword: string
  ageConfirmed: boolean
  region: string
}) => {
  const errors: FieldErrors<"name" | "mobileNo" | "password" | "confirmPassword" | "ageConfirmed" | "region"> = {}
  if (blank(input.name)) errors.name = MESSAGES.nameRequired
  if (blank(input.mobileNo)) errors.mobileNo = MESSAGES.mobileRequired
  if (input.password === "") errors.password = MESSAGES.passwordRequired
  else if (input.password.length < PASSWORD_MIN) errors.password = PASSWORD_TOO_SHORT
  if (input.confirmPassword === "") errors.confirmPassword = MESSAGES.confirmRequired
  else if (input.password !== "" && input.password !== input.confirmPassword) errors.confirmPassword = MESSAGES.passwordsDiffer
  // Players declare where they live (operators may not serve every state) and that they are adults.
  if (!isRegion(input.region)) errors.region = MESSAGES.regionRequired
  if (input.ageConfirmed !== true) errors.ageConfirmed = MESSAGES.ageRequired
  return errors
}

/** Each of the four boxes must hold a digit. */
export const validateOtp = (digits: ReadonlyArray<string>) =>
  digits.length === 4 && digits.every((d) => /^\d$/.test(d)) ? undefined : MESSAGES.otpRequired

/** The reset step: a notice rather than field errors (SPEC section 5). */
export const validateReset = (input: { otp: string; password: string; confirmPassword: string }) => {
  if (blank(input.otp) || input.password === "" || input.confirmPassword === "") return MESSAGES.fillAll
  if (input.password !== input.confirmPassword) return MESSAGES.newPasswordMismatch
  if (input.password.length < PASSWORD_MIN) return PASSWORD_TOO_SHORT
  return undefined
}

/** Change password: all three required (no message), new and confirm must match. */
export const validateChangePassword = (input: { oldPassword: string; password: string; confirmPassword: string }) => {
  if (input.oldPassword === "" || input.password === "" || input.confirmPassword === "") return "required" as const
  if (input.password !== input.confirmPassword) return MESSAGES.newPasswordMismatch
  if (input.password.length < PASSWORD_MIN) return PASSWORD_TOO_SHORT
  return undefined
}
