/** A stand-in for the browser's audio recording, which jsdom lacks. */
import { vi } from 'vitest';

/**
 * Stubs audio recording for the calling test: `MediaRecorder` becomes a recorder of the MIME `type`
 * whose `stop()` hands over one blob of `bytes` bytes, and `navigator.mediaDevices.getUserMedia`
 * answers a stream whose one track calls `stopTrack` when stopped. The recorder is undone by
 * `vi.unstubAllGlobals()`; `mediaDevices` stays until the next call replaces it.
 */
export function stubAudioRecording(type: string, bytes: number, stopTrack: () => void = () => {}): void {
  class FakeRecorder {
    state = 'inactive';
    mimeType = type;
    ondataavailable: ((e: { data: Blob }) => void) | null = null;
    onstop: (() => void) | null = null;
    start() {
      this.state = 'recording';
    }
    stop() {
      this.state = 'inactive';
      this.ondataavailable?.({ data: new Blob([new Uint8Array(bytes)], { type }) });
      this.onstop?.();
    }
  }
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn(async () => ({ getTracks: () => [{ stop: stopTrack }] })) },
  });
}
