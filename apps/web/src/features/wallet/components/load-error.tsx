/** The shared failed-load state, under the wallet's own path for the screens that import it from here. */
export { LoadError } from '@/components/ui/load-error';
