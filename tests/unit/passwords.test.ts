import { describe, expect, it } from "vitest"
import { decoratedWord } from "../../src/domain/validation.ts"

describe("decoratedWord", () => {
  it("finds the one word a password is built on, with symbols and digits on either side", () => {
    expect(decoratedWord("Password@123")).toBe("Password")
    expect(decoratedWord("India@1234")).toBe("India")
    expect(decoratedWord("2024#Cricket!")).toBe("Cricket")
    expect(decoratedWord("Khel1234")).toBe("Khel")
    expect(decoratedWord("नमस्ते@123")).toBe("नमस्ते") // its vowel signs are marks, part of the word
    expect(decoratedWord("Bharat@123")).toBe("Bharat")
  })

  it("finds none in passwords of several words or no letters", () => {
    for (const password of ["Monsoon-Tiffin-42", "Tiffin#Monsoon42", "12345678", "@@@@1234"]) expect(decoratedWord(password), password).toBeUndefined()
  })
})
