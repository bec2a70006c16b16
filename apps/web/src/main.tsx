import { startEntry } from './app/entry';
import './app/base.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
// The login entry at /login without a session, else the full app (app/entry.ts).
void startEntry(root);
