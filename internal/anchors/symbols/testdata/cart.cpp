// cart.cpp: a realistic C++ fixture.
#include <string>
#include <vector>

namespace shop {
namespace io {

class Cart {
public:
    explicit Cart(int capacity);
    Cart(const Cart &other);
    ~Cart();

    void add(const std::string &sku, int qty = 1);
    void add(int id);
    std::size_t size() const { return items_.size(); }

    class Line {
    public:
        struct Tax {
            double rate() const { return 0.2; }
        };
        int qty;
    };

private:
    std::vector<Line> items_;
};

Cart::Cart(int capacity) { items_.reserve(capacity); }

Cart::Cart(const Cart &other) : items_(other.items_) {}

Cart::~Cart() {}

void Cart::add(const std::string &sku, int qty) {
    Line l;
    l.qty = qty;
    items_.push_back(l);
}

void Cart::add(int id) { add(std::to_string(id)); }

template <typename T>
T clamp(T v, T lo, T hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

using Sku = std::string;

enum class Mode { Retail, Wholesale };

}  // namespace io

int io_count() { return 0; }

}  // namespace shop
