package shop
object Cart {
  val max = 10
  var count = 0
  def total(xs: List[Int]): Int = xs.sum
  def apply(): Cart = new Cart
}
class Cart(val items: List[Int]) extends Base {
  def size: Int = items.size
  class Inner { def deep = 1 }
}
trait Payable { def pay(x: Int): Int }
case class Item(name: String)
def top(a: Int) = a + 1
enum Color { case Red }
type Alias = Int
