package shop;

import java.util.List;

/** Checkout flow. */
@Service
public class Checkout {
    public static final int MAX_RETRIES = 3;
    private final Gateway gateway;
    private int attempts = 0, failures = 0;

    public Checkout(Gateway gateway) {
        this.gateway = gateway;
    }

    public Checkout(Gateway gateway, int attempts) {
        this(gateway);
        this.attempts = attempts;
    }

    public Receipt pay(List<Item> items) {
        attempts += 1;
        long amount = items.stream().mapToLong(Item::price).sum();
        return gateway.charge(amount);
    }

    public Receipt pay(Item item) {
        return gateway.charge(item.price());
    }

    static String banner() {
        return """
            Welcome
              to the shop
            """;
    }

    public interface Gateway {
        Receipt charge(long amount);
    }

    public record Item(String name, long price) {
        public Item {
            if (price < 0) throw new IllegalArgumentException("price");
        }
    }

    enum State {
        OPEN, PAID;

        boolean done() { return this == PAID; }

        static class Audit {
            static class Entry {
                void log(String... parts) { System.out.println(String.join(",", parts)); }
            }
        }
    }
}
