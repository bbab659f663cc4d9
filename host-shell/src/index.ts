// The async boundary lets the federation runtime agree on the shared singletons
// (react, antd, jotai, the SDK, ...) before any of them is evaluated.
import('./bootstrap');
