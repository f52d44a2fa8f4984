<?php
namespace App\Shop;
const LIMIT = 5;
function top($a) { return $a + 1; }
interface Payable { public function pay(int $x): int; }
trait Greets { public function hi() { return "hi $this->name"; } }
class Cart extends Base implements Payable {
    const MAX = 10;
    private $items = [];
    public function pay(int $x): int { return $x * 2; }
    public static function make() { return new static(); }
}
enum Suit { case Hearts; }
