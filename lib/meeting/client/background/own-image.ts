// The person's own background picture: kept in this browser's IndexedDB so that it is there
// next time, and never sent anywhere (the worker gets it decoded, as an ImageBitmap).

const DATABASE = 'enclave-background';
const STORE = 'images';
const KEY = 'own';
/** A photo from a phone is a few MB; anything larger is not a picture meant for this. */
export const OWN_IMAGE_MAX_BYTES = 15 * 1024 * 1024;

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const database = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = act(database.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result as T);
      request.onerror = () => reject(request.error);
    });
  } finally {
    database.close();
  }
}

export async function saveOwnImage(image: Blob): Promise<void> {
  await run('readwrite', (store) => store.put(image, KEY));
}

/** The picture kept last time, or null (never chosen, or the browser's storage was cleared). */
export async function loadOwnImage(): Promise<Blob | null> {
  try {
    const found = await run<unknown>('readonly', (store) => store.get(KEY));
    return found instanceof Blob ? found : null;
  } catch {
    return null;
  }
}
