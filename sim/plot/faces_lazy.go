//go:build lazyfaces

package plot

// This build carries no faces: FaceData stays nil until its host sets it
// (the page's engine workers fetch the two files, wasm/browser).
