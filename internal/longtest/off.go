//go:build !long

package longtest

const enabled = false
