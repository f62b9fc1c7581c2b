// Chat and reactions: what arrives over the data channels (or is typed here) and how the call
// screen keeps it. Pure: ids and times come in from the caller.

export interface ChatMessage {
  id: string;
  from: string;
  name: string;
  text: string;
  at: number;
}

export interface Reaction {
  id: string;
  from: string;
  name: string;
  emoji: string;
}

export interface ChatState {
  chat: ChatMessage[];
  unreadChat: number;
  reactions: Reaction[];
}

export const CHAT_MAX_LENGTH = 2000;
/** The last messages kept: a long meeting must not grow the page without bound. */
export const CHAT_KEPT = 500;
/** How long a reaction floats on the stage. */
export const REACTION_MS = 4000;
const REACTIONS_KEPT = 20;

/** What is sent for a typed message: trimmed and cut to length; null when nothing is left. */
export function chatText(text: string): string | null {
  const trimmed = text.trim().slice(0, CHAT_MAX_LENGTH);
  return trimmed || null;
}

/**
 * Adds a message once (a peer may resend the same id); it counts as unread unless the panel is
 * open or it is our own.
 */
export function addChat<S extends ChatState>(state: S, message: ChatMessage, selfId: string, chatOpen: boolean): S {
  if (state.chat.some((m) => m.id === message.id)) return state;
  const unread = chatOpen || message.from === selfId ? state.unreadChat : state.unreadChat + 1;
  return { ...state, chat: [...state.chat, message].slice(-CHAT_KEPT), unreadChat: unread };
}

export function addReaction<S extends ChatState>(state: S, reaction: Reaction): S {
  return { ...state, reactions: [...state.reactions, reaction].slice(-REACTIONS_KEPT) };
}

export function expireReaction<S extends ChatState>(state: S, id: string): S {
  if (!state.reactions.some((r) => r.id === id)) return state;
  return { ...state, reactions: state.reactions.filter((r) => r.id !== id) };
}
