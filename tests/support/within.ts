// A wait that may never end (a server's close), bounded: a hang shows as a failed assertion with
// what was waited on, not as the test's own timeout.
export async function within<T>(work: Promise<T>, ms: number): Promise<T | `still waiting after ${number} ms`> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<`still waiting after ${number} ms`>((resolve) => (timer = setTimeout(() => resolve(`still waiting after ${ms} ms`), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
