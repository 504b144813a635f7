// `npm run build`: the server and the CLI, bundled into dist/.
import { bundle } from './bundle.mjs';

await bundle('dist');
