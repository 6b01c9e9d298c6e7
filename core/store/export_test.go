package store

import "context"

// Acquire is AcquireContext without a deadline, for the lock tests.
func Acquire(dir string, opt LockOptions) (*Lock, error) {
	return AcquireContext(context.Background(), dir, opt)
}
