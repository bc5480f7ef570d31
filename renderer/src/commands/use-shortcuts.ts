// The one keydown listener for the whole inbox: asks the registry which command a key press means
// here (none while typing in a field, unless the command says otherwise) and runs it.
import { useEffect } from 'react';
import type { CommandRegistry } from './registry';

export function useShortcuts<Ctx>(registry: CommandRegistry<Ctx>, context: () => Ctx, enabled = true) {
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const command = registry.forKey(context(), e);
      if (!command) return;
      e.preventDefault();
      command.run(context());
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [registry, context, enabled]);
}
