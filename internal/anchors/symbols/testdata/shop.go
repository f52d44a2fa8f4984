// Package shop is a realistic fixture: receivers, generics, groups, nesting.
package shop

import (
	"errors"
	"fmt"
)

// ErrEmpty is returned for an empty cart.
var ErrEmpty = errors.New("empty cart")

const (
	MaxItems = 100
	minPrice = 1
)

type (
	Cents int64
	ID    = string
)

// Item is one line of a cart.
type Item struct {
	Name  string `json:"name"`
	Price Cents
	Meta  struct {
		Tags []string
		Dims struct {
			W, H int
		}
	}
	fmt.Stringer
}

// Store keeps values by key.
type Store[K comparable, V any] struct {
	items map[K]V
}

// Get returns the value for k.
func (s *Store[K, V]) Get(k K) (V, bool) {
	v, ok := s.items[k]
	return v, ok
}

func (s Store[K, V]) Len() int { return len(s.items) }

// Gateway charges money.
type Gateway interface {
	Charge(amount Cents, ref string) (string, error)
	fmt.Stringer
}

// Cart is a list of items.
type Cart struct {
	items []Item
}

func (c *Cart) Add(it Item) error {
	if len(c.items) >= MaxItems {
		return fmt.Errorf("cart full: %d", len(c.items))
	}
	c.items = append(c.items, it)
	return nil
}

// Total sums the prices.
func Total(items []Item, discount Cents) Cents {
	var sum Cents
	for _, it := range items {
		sum += it.Price
	}
	local := func() {}
	local()
	return max(0, sum-discount)
}

func init() {}
