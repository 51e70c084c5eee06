// Injected by the build of a function whose every request carries a token (infra/bundle/build-options.ts).
import * as auth from './auth';
import { bundled } from './bundled';

bundled.auth = auth;
