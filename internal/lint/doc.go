// Package lint holds tests that check the shape of the source tree: which
// module packages each package imports, an allow-list per package
// (layers_test.go), and that the root package links no database driver
// (drivers_test.go). It has no code of its own.
package lint
