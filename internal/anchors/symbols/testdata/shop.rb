module Shop
  class Cart < Base
    MAX = 10
    def initialize(items)
      @items = items
    end
    def self.build(x)
      new(x)
    end
    class << self
      def other; end
    end
  end
end
def top(a, b = 1)
  "#{a} #{b}"
end
class A::B
  def m; end
end
