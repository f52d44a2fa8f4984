package shop

import kotlin.math.max

typealias Cents = Long

const val MAX_RETRIES = 3

/**
 * Total of the items, minus a discount.
 */
fun total(items: List<Item>, discount: Int = 0): Cents {
    val sum = items.sumOf { it.price }
    return max(0, sum - discount)
}

fun List<Item>.cheapest(): Item? = minByOrNull { it.price }

val String.slug: String
    get() = lowercase().replace(' ', '-')

data class Item(val name: String, val price: Cents)

interface Gateway {
    val name: String
    fun charge(amount: Cents): Receipt
}

enum class Currency(val code: String) {
    EUR("EUR"), USD("USD");

    fun symbol(): String = if (this == EUR) "€" else "$"
}

object Registry {
    private val gateways = mutableMapOf<String, Gateway>()

    fun register(gateway: Gateway) {
        gateways[gateway.name] = gateway
    }
}

class Checkout(private val gateway: Gateway) {
    var attempts: Int = 0
        private set

    constructor(gateway: Gateway, attempts: Int) : this(gateway) {
        this.attempts = attempts
    }

    suspend fun pay(items: List<Item>): Receipt {
        attempts += 1
        val amount = total(items)
        return gateway.charge(amount)
    }

    fun pay(item: Item): Receipt = gateway.charge(item.price)

    companion object {
        const val VERSION = "1"
        fun create(gateway: Gateway): Checkout = Checkout(gateway)
    }
}
