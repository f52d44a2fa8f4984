using System;
using System.Collections.Generic;

namespace Shop.Billing
{
    /// <summary>Checkout flow.</summary>
    [Serializable]
    public sealed class Checkout
    {
        public const int MaxRetries = 3;
        private readonly IGateway gateway;
        private int attempts = 0, failures = 0;

        public int Attempts { get; private set; }
        public bool Done => attempts > 0 && failures == 0;

        public Checkout(IGateway gateway)
        {
            this.gateway = gateway;
        }

        public Checkout(IGateway gateway, int attempts) : this(gateway)
        {
            this.attempts = attempts;
        }

        public Receipt Pay(IList<Item> items)
        {
            attempts += 1;
            var amount = 0L;
            foreach (var item in items) { amount += item.Price; }
            return gateway.Charge(amount, $"pay-{attempts}");
        }

        public Receipt Pay(Item item) => gateway.Charge(item.Price, @"single");

        public interface IGateway
        {
            Receipt Charge(long amount, string reference);
        }

        public record Item(string Name, long Price);

        public struct Totals
        {
            public long Net;

            public enum Kind { Net, Gross }

            public class Audit
            {
                public void Log(params string[] parts) => Console.WriteLine(string.Join(",", parts));
            }
        }
    }
}
