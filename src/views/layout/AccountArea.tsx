import { useEffect, useState } from "react"
import { Link } from "react-router"

/** The Register button pulses for 10 s, or until the player hovers, focuses or clicks it. */
export const REGISTER_PULSE_MS = 10_000

const useRegisterPulse = () => {
  const [pulsing, setPulsing] = useState(true)
  useEffect(() => {
    const timer = setTimeout(() => setPulsing(false), REGISTER_PULSE_MS)
    return () => clearTimeout(timer)
  }, [])
  return [pulsing, () => setPulsing(false)] as const
}

export const AccountArea = () => {
  const [pulsing, stopPulse] = useRegisterPulse()
  return (
    <div className="flex items-center gap-2">
      <Link to="/login" className="btn-ghost px-3 py-1.5">Login</Link>
      <Link
        to="/login?register=1"
        data-pulsing={pulsing}
        className={`btn-brand px-3 py-1.5 ${pulsing ? "pulse" : ""}`}
        onMouseEnter={stopPulse}
        onFocus={stopPulse}
        onClick={stopPulse}
      >
        Register
      </Link>
    </div>
  )
}
