import { AppActor } from "../app-actor.ts"
import { Icon } from "../widgets/Icon.tsx"

/**
 * The floating support link: opens the messaging app with the support contact. On a phone it steps aside while a
 * bet slip is open (styles.css), where it would sit over the slip's figures and buttons.
 */
export const SupportChat = () => {
  const href = AppActor.useSelector((s) => s.context.allSettings?.contacts.supportChat)
  if (!href) return null
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Chat with support"
      className="support-chat fixed bottom-20 right-4 z-40 flex h-12 w-12 items-center justify-center rounded-full bg-[#25d366] text-white shadow-lg hover:brightness-110 lg:bottom-6"
    >
      <Icon name="whatsapp" size={24} />
    </a>
  )
}
