//go:build !unix

package store

import "os"

// mapFile reads the file at name whole where memory maps are not at hand.
func mapFile(name string) (b []byte, unmap func(), err error) {
	b, err = os.ReadFile(name)
	return b, func() {}, err
}
